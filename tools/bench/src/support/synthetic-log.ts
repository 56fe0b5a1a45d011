import Database from 'better-sqlite3';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { accountKeyStreamName, EVENT_SCHEMAS, hashSecret, SecretBox, type AccountIdentity } from '@gw/application';
import { accountStreamName } from '@gw/domain-accounts';
import { CHAIN_KEY, chainHashOfJson } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';

/** The metadata the versioned store stamps on an event of `type` (libs/application/src/event-schema),
 * so that a replay reads the synthetic log as it reads one the gateway wrote: nothing to upcast. */
function stampOf(type: string): string {
  const schema = EVENT_SCHEMAS.get(type);
  if (!schema) throw new Error(`synthetic log: event type ${type} has no registered schema`);
  return JSON.stringify({ schemaVersion: schema.version });
}

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
  /** Each stream's last hash chain, so that the events carry it as the store writes it. */
  private readonly chains = new Map<string, string>();
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
    const id = randomUUID();
    const json = JSON.stringify(data);
    const stamp = stampOf(type);
    const chain = chainHashOfJson(this.chains.get(stream) ?? '', stream, id, type, json, stamp);
    this.chains.set(stream, chain);
    this.rows.push([
      id,
      stream,
      revision,
      type,
      json,
      JSON.stringify({ ...(JSON.parse(stamp) as object), [CHAIN_KEY]: chain }),
      recordedAt,
    ]);
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

/** An account as the API makes it (accounts/account-identity.ts): its data key, sealed under
 * SECRETS_KEY (`box`), then its registration under its id with its address sealed. Returns its id. */
export function writeAccount(log: LogWriter, a: number, at: string, identity: AccountIdentity, box: SecretBox): string {
  const { email, apikey } = syntheticAccount(a);
  const accountId = identity.accountId(email);
  const key = randomBytes(32);
  log.add(
    accountKeyStreamName(accountId),
    'AccountKeyCreated',
    { accountId, sealedKey: box.seal(key.toString('base64')), createdAt: at },
    at,
  );
  const sealedEmail = new SecretBox(key).seal(email);
  log.add(
    accountStreamName(accountId),
    'AccountRegistered',
    { accountId, email: sealedEmail, apiKeyHash: hashSecret(apikey), registeredAt: at },
    at,
  );
  return accountId;
}

/** An instance as the API makes it: created, then a webhook registered with its signing secret. */
export function writeInstance(
  log: LogWriter,
  i: number,
  accountId: string,
  sealedSecret: string,
  at: string,
  expiresAt: string,
): string {
  const { instanceid: instanceId, token } = syntheticInstance(i);
  const stream = `instance-${instanceId}`;
  log.add(
    stream,
    'InstanceCreated',
    { instanceId, accountId, packageId: 'monthly', tokenHash: hashSecret(token), createdAt: at, expiresAt },
    at,
  );
  log.add(stream, 'SigningSecretIssued', { instanceId, encryptedSecret: sealedSecret, issuedAt: at }, at);
  log.add(stream, 'WebhookSet', { instanceId, url: `https://8.8.8.8/hooks/${i}`, setAt: at }, at);
  return instanceId;
}
