import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { hashSecret } from '@gw/application';
import { SqliteEventStore } from '@gw/event-store/sqlite';

/**
 * Writes a synthetic log straight into an embedded store file, many events per transaction and
 * without fsync: test data, made in seconds instead of the minutes the store API's one-fsync-per-append
 * would take. The table is made by SqliteEventStore itself, so the file is the product's format.
 */
export class LogWriter {
  events = 0;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly revisions = new Map<string, number>();
  private rows: unknown[][] = [];

  private constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('synchronous = OFF');
    this.insert = this.db.prepare(
      'INSERT INTO events (event_id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
  }

  static async open(file: string): Promise<LogWriter> {
    await new SqliteEventStore({ file }).close();
    return new LogWriter(file);
  }

  add(stream: string, type: string, data: unknown, recordedAt: string): void {
    const revision = (this.revisions.get(stream) ?? -1) + 1;
    this.revisions.set(stream, revision);
    this.rows.push([randomUUID(), stream, revision, type, JSON.stringify(data), '{}', recordedAt]);
    this.events += 1;
    if (this.rows.length >= 20_000) this.flush();
  }

  flush(): void {
    const rows = this.rows;
    this.rows = [];
    this.db.transaction(() => {
      for (const row of rows) this.insert.run(...row);
    })();
  }

  close(): void {
    this.flush();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}

/** Credentials of the synthetic accounts and instances, derived from their index so that the
 * bench can query any of them without carrying a list around. */
export const syntheticAccount = (a: number) => ({ email: `bench-${a}@example.com`, apikey: `gwk_bench_account_${a}` });
export const syntheticInstance = (i: number) => ({
  instanceid: createHash('sha256').update(`bench-instance-${i}`).digest('hex').slice(0, 24),
  token: `gwt_bench_instance_${i}`,
});

/** A deterministic PRNG (mulberry32), so every run writes the same mix. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function writeAccount(log: LogWriter, a: number, at: string): void {
  const { email, apikey } = syntheticAccount(a);
  log.add(`account-${email}`, 'AccountRegistered', { email, apiKeyHash: hashSecret(apikey), registeredAt: at }, at);
}

/** An instance as the API makes it: created, then a webhook registered with its signing secret. */
export function writeInstance(log: LogWriter, i: number, accountEmail: string, sealedSecret: string, at: string, expiresAt: string): string {
  const { instanceid: instanceId, token } = syntheticInstance(i);
  const stream = `instance-${instanceId}`;
  log.add(stream, 'InstanceCreated', { instanceId, accountEmail, packageId: 'monthly', tokenHash: hashSecret(token), createdAt: at, expiresAt }, at);
  log.add(stream, 'SigningSecretIssued', { instanceId, encryptedSecret: sealedSecret, issuedAt: at }, at);
  log.add(stream, 'WebhookSet', { instanceId, url: `https://8.8.8.8/hooks/${i}`, setAt: at }, at);
  return instanceId;
}
