// `npm run ops -- audit timeline --instance ID | --account EMAIL [--json]` (docs/api.md 9.1): an
// instance's or account's history, oldest first, with personal fields opened (or `[erased]`) and no
// secret, token, key, hash or sealed value.
import { AccountIdentity, PersonalData, SecretBox } from '@gw/application';
import type { AppConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import { accountTimeline, instanceTimeline } from './timeline';
import { ERASED, formatEntry, type Data, type Openers } from './timeline-facts';

export type TimelineSubject = { instanceId: string } | { email: string };

function openers(
  store: EventStore,
  config: AppConfig,
  identity: AccountIdentity,
  accountId: string | undefined,
): Openers {
  const personal = PersonalData.on(store, new SecretBox(config.secrets.secretsKey));
  return {
    message: async (instanceId, message) =>
      (await personal.openMessage(instanceId, message as never, ERASED)) as unknown as Data,
    ack: async (instanceId, ack) => (await personal.openAck(instanceId, ack as never, ERASED)) as unknown as Data,
    email: async (sealed) =>
      accountId === undefined ? ERASED : ((await identity.openEmail(store, accountId, sealed)) ?? ERASED),
  };
}

/** Writes the timeline to `write`, one line per event; throws UnknownSubject for no such history. */
export async function printTimeline(
  store: EventStore,
  config: AppConfig,
  subject: TimelineSubject,
  json: boolean,
  write: (line: string) => void,
): Promise<void> {
  const identity = new AccountIdentity(config.secrets.secretsKey);
  const entries =
    'instanceId' in subject
      ? await instanceTimeline(store, subject.instanceId, openers(store, config, identity, undefined))
      : await (async () => {
          const accountId = identity.accountId(subject.email);
          return accountTimeline(store, accountId, subject.email, openers(store, config, identity, accountId));
        })();
  for (const entry of entries) write(json ? JSON.stringify(entry) : formatEntry(entry));
}
