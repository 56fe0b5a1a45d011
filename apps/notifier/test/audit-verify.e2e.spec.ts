import Database from 'better-sqlite3';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inboxStreamName } from '@gw/domain-inbox';
import { instanceStreamName } from '@gw/domain-instances';
import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import { runOpsAsync, WebhookReceiver } from '@gw/testing';
import { loggedAttempts, subscribed } from './support/delivery-fixtures';
import { STORES } from './support/on-store';
import { LOCAL_TARGETS, Stack, until, type Instance } from './support/stack';

/** `ops audit verify` (docs/api.md 9.2) end to end: the built API, notifier and operator CLI as
 * processes, on a log written through the API, then broken on purpose in the store and the read
 * models' files. */

type Summary = Record<string, any>;

describe.each(STORES)('ops audit verify on %s', (_name, onEsdb) => {
  let receiver: WebhookReceiver;
  let server: EsdbTestServer | undefined;
  let stack: Stack;
  let subscriber: Instance;
  let quiet: Instance;
  /** What no output may contain: tokens, the account's key, the webhook's signing secret. */
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    server = onEsdb ? await startEsdbTestServer({ port: 0 }) : undefined;
    const store: Record<string, string> = server
      ? { EVENT_STORE: server.connectionString, SECRETS_KEY: 'ab'.repeat(32) }
      : {};
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, ...store }, freshNotifierDisk: onEsdb });
    const hooked = await subscribed(stack, receiver);
    subscriber = hooked.instance;
    secrets.push(subscriber.token, hooked.secret);
    await stack.message(subscriber, { id: 'av-1', body: 'a message to deliver', senderName: 'Ann' });
    await stack.ack(subscriber, { id: 'av-1', chatId: 'chat-1@c.us', status: 'delivered', time: 1_700_000_002 });
    await until('both notifications', () => receiver.at(hooked.path).length >= 2);
    await loggedAttempts(stack, subscriber, 2);
    await stack.renew(subscriber);
    quiet = await stack.newInstance();
    secrets.push(quiet.token);
    await stack.message(quiet, { id: 'av-2', body: 'the message that will be tampered with' });
    const gone = await stack.newInstance();
    expect((await stack.deleteInstance(gone)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await server?.stop();
  });

  const verify = async () => {
    const result = await runOpsAsync(stack.dataDir, ['audit', 'verify'], stack.apiEnv);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
    return { ...result, summary: JSON.parse(lines[0]) as Summary };
  };

  /** The log as `events list` prints it, up to `position`. */
  const logUpTo = async (position: string) => {
    const listed = await runOpsAsync(stack.dataDir, ['events', 'list', '--limit', '1000000'], stack.apiEnv);
    expect(listed.status).toBe(0);
    const events = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { streamName: string; position: string });
    return events.filter((event) => BigInt(event.position) <= BigInt(position));
  };

  const readModels = () => new Database(join(stack.dataDir, 'read-models.sqlite'));

  it('passes on a healthy log while the API keeps writing, counting every event and stream up to the head it started at', async () => {
    const writing = Promise.all(
      [1, 2, 3].map(() => stack.newInstance().then((i) => stack.webhook(i, receiver.url('/later')))),
    );
    const { status, stderr, summary } = await verify();
    await writing;
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const log = await logUpTo(summary.position);
    expect(summary).toEqual({
      verified: true,
      events: log.length,
      streams: new Set(log.map((event) => event.streamName)).size,
      readModels: ['instances', 'webhook-logs', 'usage'],
      position: summary.position,
      readModelsPosition: summary.readModelsPosition,
    });
    expect(summary.events).toBeGreaterThan(10);
    expect(BigInt(summary.readModelsPosition)).toBeGreaterThanOrEqual(BigInt(summary.position));
    expect(readdirSync(stack.dataDir).filter((name) => name.startsWith('audit-verify-'))).toEqual([]);
  });

  it('names the first read-model difference: a changed field with its values, a hash by its name only, a missing row', async () => {
    const db = readModels();
    try {
      const row = db
        .prepare('SELECT expires_at, token_hash FROM instances WHERE instance_id = ?')
        .get(quiet.instanceid) as { expires_at: string; token_hash: string };
      const set = (column: string, value: string) =>
        db.prepare(`UPDATE instances SET ${column} = ? WHERE instance_id = ?`).run(value, quiet.instanceid);

      set('expires_at', '2001-02-03T04:05:06.007Z');
      const changed = await verify();
      expect(changed.status).toBe(1);
      expect(changed.summary).toMatchObject({ verified: false, readModelDifferences: 1 });
      expect(changed.summary.firstDifference).toEqual({
        readModel: 'instances',
        table: 'instances',
        key: { instance_id: quiet.instanceid },
        field: 'expires_at',
        live: '2001-02-03T04:05:06.007Z',
        rebuilt: row.expires_at,
      });
      expect(changed.summary.firstBroken).toBeUndefined();
      expect(changed.stderr).toContain(
        `read model instances differs from the log at position ${changed.summary.readModelsPosition}`,
      );
      expect(changed.stderr).toContain(`instance_id ${quiet.instanceid}, field expires_at`);
      set('expires_at', row.expires_at);

      const forged = 'f'.repeat(row.token_hash.length);
      set('token_hash', forged);
      const hashed = await verify();
      expect(hashed.status).toBe(1);
      expect(hashed.summary.firstDifference).toEqual({
        readModel: 'instances',
        table: 'instances',
        key: { instance_id: quiet.instanceid },
        field: 'token_hash',
      });
      for (const value of [forged, row.token_hash]) expect(hashed.stdout + hashed.stderr).not.toContain(value);
      expect(hashed.stderr).toContain('field token_hash: (values not shown)');
      set('token_hash', row.token_hash);

      const attempt = db
        .prepare('SELECT * FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT 1')
        .get(subscriber.instanceid) as Record<string, unknown>;
      db.prepare('DELETE FROM delivery_attempts WHERE position = ?').run(attempt['position']);
      const missing = await verify();
      expect(missing.status).toBe(1);
      expect(missing.summary.firstDifference).toEqual({
        readModel: 'webhook-logs',
        table: 'delivery_attempts',
        key: { position: String(attempt['position']) },
        field: 'row',
        live: '(no such row)',
        rebuilt: '(row present)',
      });
      const columns = Object.keys(attempt);
      db.prepare(
        `INSERT INTO delivery_attempts (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ).run(...Object.values(attempt));
    } finally {
      db.close();
    }
    expect((await verify()).status).toBe(0);
  });

  it("still passes once an instance's data keys are erased and a new message makes its day's key anew", async () => {
    const erased = await runOpsAsync(
      stack.dataDir,
      ['instances', 'erase', '--instance', subscriber.instanceid],
      stack.apiEnv,
    );
    expect(erased.status).toBe(0);
    const before = (await stack.logs(subscriber)).length;
    await stack.message(subscriber, { id: 'av-3', body: 'after the erasure' });
    await loggedAttempts(stack, subscriber, before + 1);
    const { status, stderr, summary } = await verify();
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(summary.verified).toBe(true);
    // One key stream, made twice: EventStoreDB keeps a deleted stream's events in $all (until a
    // scavenge), so there the chain of the new one starts again after the old one's events.
    const keyEvents = (await logUpTo(summary.position)).filter((event) =>
      event.streamName.startsWith(`datakey-${subscriber.instanceid}-`),
    );
    expect(new Set(keyEvents.map((event) => event.streamName)).size).toBe(1);
    expect(keyEvents).toHaveLength(onEsdb ? 2 : 1);
  });

  it('fails naming the stream and revision of an event whose stored bytes were edited, and shows none of them', async () => {
    const stream = inboxStreamName(quiet.instanceid);
    const { revision, body } = server ? alterOnServer(server, stream) : await alterInFile(stack, stream);
    const { status, stdout, stderr, summary } = await verify();
    expect(status).toBe(1);
    expect(summary).toMatchObject({
      verified: false,
      brokenEvents: 1,
      firstBroken: { stream, revision: String(revision) },
    });
    expect(summary.firstDifference).toBeUndefined();
    expect(stderr).toContain(
      `error: stream ${stream} is broken at revision ${revision}: its stored content does not match its hash`,
    );
    expect(stdout + stderr).not.toContain(body);
  });

  // Both edit the embedded store's file by hand (EventStoreDB's client cannot read an event whose
  // JSON is broken); on EventStoreDB the chain test above alters a stored event through the test
  // server's hook.
  if (!onEsdb)
    it('still reports, naming it first, an event whose edited byte leaves invalid JSON, which its projection cannot read', async () => {
      const stream = instanceStreamName(quiet.instanceid);
      await breakJsonInFile(stack, stream);
      const { status, stderr, summary } = await verify();
      expect(status).toBe(1);
      expect(summary).toMatchObject({ verified: false, firstBroken: { stream, revision: '0' } });
      expect(stderr).toContain(`error: stream ${stream} is broken at revision 0: stored data is not valid JSON`);
      expect(summary.readModelsError ?? summary.firstDifference).toBeDefined();
    });

  if (!onEsdb)
    it('names the event that follows one removed from the middle of its stream', async () => {
      const stream = instanceStreamName(subscriber.instanceid);
      const db = new Database(await stoppedStoreFile(stack));
      expect(db.prepare('DELETE FROM events WHERE stream = ? AND revision = 1').run(stream).changes).toBe(1);
      db.close();
      const { status, stderr, summary } = await verify();
      expect(status).toBe(1);
      expect(summary.firstBroken).toMatchObject({ stream, revision: '2' });
      expect(stderr).toContain(
        `error: stream ${stream} is broken at revision 2: its stored content does not match its hash, or it does not follow revision 0`,
      );
    });
});

/** Turns a quote of the stream's first event's data into an `x`, right in the file's bytes: a span
 * of the data found nowhere else in the file says where. */
async function breakJsonInFile(stack: Stack, stream: string): Promise<void> {
  const file = await stoppedStoreFile(stack);
  const db = new Database(file, { readonly: true });
  const { data } = db.prepare('SELECT data FROM events WHERE stream = ? ORDER BY revision LIMIT 1').get(stream) as {
    data: string;
  };
  db.close();
  const bytes = readFileSync(file);
  for (let i = 0; i + 40 <= data.length; i++) {
    const span = data.slice(i, i + 40);
    const at = span.includes('"') ? bytes.indexOf(span) : -1;
    if (at < 0 || bytes.lastIndexOf(span) !== at) continue;
    bytes[at + span.indexOf('"')] = 'x'.charCodeAt(0);
    writeFileSync(file, bytes);
    return;
  }
  throw new Error(`no span of ${stream}'s first event is unique in the file`);
}

/** One character in the middle of `value`, changed (letters and digits stay letters and digits). */
function changed(value: string): string {
  const at = Math.floor(value.length / 2);
  const swap = /[0-8]/.test(value[at]) ? String(Number(value[at]) + 1) : value[at] === 'a' ? 'b' : 'a';
  return value.slice(0, at) + swap + value.slice(at + 1);
}

/** Stops the processes and folds the WAL into the store file, whose bytes are then all there is. */
async function stoppedStoreFile(stack: Stack): Promise<string> {
  await stack.notifier?.stop();
  await stack.api.stop();
  const file = join(stack.dataDir, 'events.sqlite');
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

/**
 * On the embedded store: stops the processes, folds the WAL into the file, and changes one byte of
 * the sealed personal fields of the stream's first event (its message) right in the file's bytes, as someone
 * with a hex editor would.
 */
async function alterInFile(stack: Stack, stream: string): Promise<{ revision: bigint; body: string }> {
  const file = await stoppedStoreFile(stack);
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  const row = db
    .prepare('SELECT revision, data FROM events WHERE stream = ? ORDER BY revision LIMIT 1')
    .get(stream) as { revision: bigint; data: string };
  db.close();
  const body = (JSON.parse(row.data) as { message: { sealed: string } }).message.sealed;
  const bytes = readFileSync(file);
  const at = bytes.indexOf(body);
  expect(at).toBeGreaterThan(0);
  expect(bytes.lastIndexOf(body)).toBe(at);
  bytes.write(changed(body), at);
  writeFileSync(file, bytes);
  return { revision: row.revision, body };
}

/** On EventStoreDB: the test server's tampering hook changes the stored data of the stream's first
 * event, as someone editing the database's chunk files would. */
function alterOnServer(server: EsdbTestServer, stream: string): { revision: bigint; body: string } {
  const [first] = server.log.stream(stream) ?? [];
  expect(first).toBeDefined();
  const data = JSON.parse(Buffer.from(first.data).toString('utf8')) as { message: { sealed: string } };
  const body = data.message.sealed;
  data.message.sealed = changed(body);
  server.log.alterEvent(stream, first.revision, { data: Buffer.from(JSON.stringify(data)) });
  return { revision: BigInt(first.revision), body };
}
