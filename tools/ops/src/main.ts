// Operator CLI (docs/api.md section 5): `npm run ops -- <command>`. Results go to stdout as JSON lines (output.ts);
// errors go to stderr with exit code 1.
import { notificationsAggregate, withEventSchemas } from '@gw/application';
import { ConfigError, loadConfig, type AppConfig } from '@gw/config';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';
import { parseArgs } from 'node:util';
import { AccountRefused, createAccount, eraseAccountOf, resetAccountKey } from './accounts';
import { hideSealed } from './audit/hide-sealed';
import { UnknownSubject } from './audit/timeline';
import { printTimeline } from './audit/timeline-command';
import { auditVerify } from './audit/verify-command';
import { eraseInstance } from './instances-erase';
import { InstanceRefused, instanceOption, undeliverable } from './instances';
import { Output } from './output';

const USAGE = `Usage: npm run ops -- <command>

  accounts create --email ADDRESS   create an account; prints {"email", "apikey"}
  accounts reset-key --email ADDRESS
                                    give an account a new API key (the old one stops working);
                                    prints {"email", "apikey"}
  accounts erase --email ADDRESS    make an account's address unreadable for good and end its
                                    sign-in (refused while it has an active instance);
                                    prints {"email", "erased"}
  packages list                     print the package catalogue in use (PACKAGES_FILE)
  deliveries resend --instance ID   give each dead-lettered notification of an instance a new
                                    full retry schedule (refused while the instance is deleted,
                                    expired or has delivery off); prints {"instance", "resent"}
  instances erase --instance ID     destroy the data keys of an instance (active or deleted): its
                                    messages and acks can never be read again; prints
                                    {"instance", "erasedDays"}
  events list [--stream NAME] [--after POSITION] [--limit N]
                                    print recorded events as JSON lines, secrets, hashes
                                    and sealed values hidden: the log after POSITION (default:
                                    from its start), N events (default 1000), or one stream
                                    (its first N events with --limit)
  audit timeline --instance ID | --account ADDRESS [--json]
                                    an instance's or account's history, oldest first: one line per
                                    event (time, type, facts), or one JSON object per line
  audit verify                      check every stream's hash chain and compare the read models
                                    with a rebuild from the log; prints one JSON line, exit 1
                                    naming the first broken stream and read-model difference

The store, key and catalogue are those of the environment (DATA_DIR, EVENT_STORE, SECRETS_KEY,
PACKAGES_FILE). events list and audit read a store the service wrote and make nothing.`;

class UsageError extends Error {}

/** Commands that only read the log. */
const READ_ONLY = new Set(['events list', 'audit timeline', 'audit verify']);

/** The largest position a store can have (a signed 64-bit integer). */
const MAX_POSITION = 2n ** 63n - 1n;

/** Events `events list` reads from the log at a time: it prints any number, holding a page. */
const LIST_PAGE = 1000;

/** Checks that a command that takes no options was given none. */
function noOptions(args: string[]): void {
  parseArgs({ args, options: {}, strict: true });
}

async function withStore<T>(config: AppConfig, work: (store: EventStore) => Promise<T>): Promise<T> {
  // Events in their current shape, as the apps read and write them (libs/application/src/event-schema).
  const store = withEventSchemas(
    openEventStore(config.store.eventStore, { lockTimeoutMs: config.store.lockTimeoutMs }),
  );
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const out = new Output();

/** Thrown when the one result of a command that changed something could not be written. */
class ResultLost extends Error {}

/**
 * Prints the result of a command that changed something. The change is made by then: when the
 * reader has gone, the operator must hear on stderr what happened and what to do (`then`).
 */
async function report(value: unknown, then: string): Promise<void> {
  if (!(await out.json(value))) throw new ResultLost(`stdout was closed before the result was written; ${then}`);
}

/** Whether `text` is an e-mail address by the API's rule (class-validator's isEmail). class-validator
 * is loaded here, when a command takes an address, not at every start: its index loads some 300
 * modules, most of the CLI's start-up time, for this one function. */
async function isEmailAddress(text: string): Promise<boolean> {
  const { isEmail } = await import('class-validator');
  return isEmail(text);
}

/** `--email`, checked by the same rule as the API's `email` parameter, so that every account an
 * operator creates or gives a key can sign in. */
async function emailOption(args: string[]): Promise<string> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } }, strict: true });
  const email = values.email?.trim() ?? '';
  if (!(await isEmailAddress(email)) || email.length > 254) throw new UsageError('--email must be an e-mail address');
  return email;
}

async function run(argv: string[]): Promise<void> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help') {
    await out.line(USAGE);
    return;
  }
  const command = `${group} ${action ?? ''}`.trim();
  // The CLI never uses the ingest token; the commands that only read never make a store or a key.
  const config = loadConfig(process.env, process.cwd(), {
    internalToken: false,
    existingStore: READ_ONLY.has(command),
  });
  switch (command) {
    case 'accounts create': {
      const email = await emailOption(rest);
      const created = await withStore(config, (store) => createAccount(store, config, email));
      await report(
        created,
        `the account of ${created.email} exists: run \`accounts reset-key --email ${created.email}\` for a key`,
      );
      return;
    }
    case 'accounts reset-key': {
      const email = await emailOption(rest);
      const reset = await withStore(config, (store) => resetAccountKey(store, config, email));
      await report(
        reset,
        `the old key of ${reset.email} no longer works: run \`accounts reset-key --email ${reset.email}\` again`,
      );
      return;
    }
    case 'accounts erase': {
      const email = await emailOption(rest);
      await report(await withStore(config, (store) => eraseAccountOf(store, config, email)), 'the account was erased');
      return;
    }
    case 'deliveries resend': {
      const instanceId = instanceOption(rest);
      if (!instanceId) throw new UsageError('--instance must name an instance');
      const now = new Date().toISOString();
      const { events } = await withStore(config, async (store) => {
        const refusal = await undeliverable(store, instanceId, now);
        return notificationsAggregate.handle(
          store,
          instanceId,
          (state) => {
            // Nothing to resend is a resend of nothing, whatever the instance's delivery.
            if (refusal && Object.values(state.open).some((n) => n.status === 'deadLettered'))
              throw new InstanceRefused(refusal);
            return { type: 'ResendDeadLettered', data: { instanceId, now } };
          },
          { conflictRetries: config.store.conflictRetries },
        );
      });
      await report({ instance: instanceId, resent: events.length }, `${events.length} notification(s) were resent`);
      return;
    }
    case 'instances erase': {
      const instanceId = instanceOption(rest);
      if (!instanceId) throw new UsageError('--instance must name an instance');
      await report(
        await withStore(config, (store) => eraseInstance(store, instanceId)),
        "the instance's data keys were destroyed",
      );
      return;
    }
    case 'packages list':
      noOptions(rest);
      // A listing whose reader went away simply stops: the reader chose to read no more.
      for (const pkg of config.packages.catalogue) if (!(await out.json(pkg))) return;
      return;
    case 'events list': {
      const { values } = parseArgs({
        args: rest,
        options: { stream: { type: 'string' }, after: { type: 'string' }, limit: { type: 'string' } },
        strict: true,
      });
      if (values.after !== undefined && !(/^\d{1,19}$/.test(values.after) && BigInt(values.after) <= MAX_POSITION))
        throw new UsageError('--after must be a position (a whole number)');
      if (values.after !== undefined && values.stream !== undefined)
        throw new UsageError('--after is a position in the whole log: give it without --stream');
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(/^\d{1,15}$/.test(values.limit ?? '') && limit >= 1))
        throw new UsageError('--limit must be a whole number of events, 1 or more');
      await withStore(config, async (store) => {
        const print = async (events: RecordedEvent[]) => {
          for (const event of events) {
            if (!(await out.json({ ...event, data: hideSealed(event.data), metadata: hideSealed(event.metadata) })))
              return false;
          }
          return true;
        };
        if (values.stream) {
          await print(await store.readStream(values.stream, limit === undefined ? {} : { maxCount: limit }));
          return;
        }
        let after = values.after ? BigInt(values.after) : undefined;
        for (let left = limit ?? 1000; left > 0;) {
          const page = await store.readAll({ after, maxCount: Math.min(left, LIST_PAGE) });
          if (page.length === 0 || !(await print(page))) return;
          left -= page.length;
          after = page[page.length - 1].position;
        }
      });
      return;
    }
    case 'audit timeline': {
      const { values } = parseArgs({
        args: rest,
        options: { instance: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean' } },
        strict: true,
      });
      const instanceId = values.instance?.trim() ?? '';
      const email = values.account?.trim() ?? '';
      if ((instanceId === '') === (email === ''))
        throw new UsageError('audit timeline needs --instance ID or --account EMAIL');
      if (email !== '' && !(await isEmailAddress(email))) throw new UsageError('--account must be an e-mail address');
      const subject = instanceId !== '' ? { instanceId } : { email };
      await withStore(config, (store) =>
        printTimeline(store, config, subject, values.json === true, (line) => void out.line(line)),
      );
      return;
    }
    case 'audit verify':
      noOptions(rest);
      if (!(await auditVerify(config))) process.exitCode = 1;
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof UsageError ||
    error instanceof AccountRefused ||
    error instanceof UnknownSubject ||
    error instanceof InstanceRefused ||
    error instanceof ResultLost
  ) {
    process.stderr.write(`error: ${error.message}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  } else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
