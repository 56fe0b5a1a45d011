import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EsdbTestServer } from '@gw/esdb-test-server';
import type { Stack } from './stack';

// Tampering with a stored event behind the service's back, on each store, for audit-verify.e2e: what
// `ops audit verify` must notice.

/** Turns a quote of the stream's first event's data into an `x`, right in the file's bytes: a span
 * of the data found nowhere else in the file says where. */
export async function breakJsonInFile(stack: Stack, stream: string): Promise<void> {
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
export async function stoppedStoreFile(stack: Stack): Promise<string> {
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
export async function alterInFile(stack: Stack, stream: string): Promise<{ revision: bigint; body: string }> {
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
export function alterOnServer(server: EsdbTestServer, stream: string): { revision: bigint; body: string } {
  const [first] = server.log.stream(stream) ?? [];
  expect(first).toBeDefined();
  const data = JSON.parse(Buffer.from(first.data).toString('utf8')) as { message: { sealed: string } };
  const body = data.message.sealed;
  data.message.sealed = changed(body);
  server.log.alterEvent(stream, first.revision, { data: Buffer.from(JSON.stringify(data)) });
  return { revision: BigInt(first.revision), body };
}
