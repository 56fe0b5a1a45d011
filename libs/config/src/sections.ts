import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parsePackageCatalogue, type PackageDefinition } from '@gw/domain-instances';
import type { EventStoreLocation } from '@gw/event-store';
import type { EnvReader } from './env-reader';

// The configuration by concern: each component is given only the section it needs.

/** The listeners: where each host binds, and how long stopping waits for requests in flight. */
export interface HttpConfig {
  /** Bind address of the public listeners (account and instance hosts). */
  host: string;
  /** Bind address of the internal listeners: the ingest host and the notifier's status port. */
  internalHost: string;
  accountPort: number;
  apiPort: number;
  internalPort: number;
  notifierPort: number;
  shutdownGraceMs: number;
  /** Where the dashboard (served by the account host) reaches the instance host: an http(s) origin,
   * with a path prefix when a proxy adds one; '' for the page's own host name on the instance port. */
  publicApiUrl: string;
}

/** Where the log and the read models live, and how commands and reads wait on them. */
export interface StoreConfig {
  dataDir: string;
  eventStore: EventStoreLocation;
  readModelFile: string;
  /** How long the embedded store waits for another process's write lock before answering 0011. */
  lockTimeoutMs: number;
  /** Internal retries of a command whose stream changed underneath it before answering 0012. */
  conflictRetries: number;
  /** How long a response waits for the read models to show a write (docs/api.md 4.7). */
  readModelWaitMs: number;
}

/** Which webhook URLs are accepted, and how deliveries to them are timed. */
export interface WebhooksConfig {
  allowPrivateTargets: boolean;
  allowHttp: boolean;
  /** Bound on the DNS lookup made while checking a webhookUrl at registration. */
  dnsTimeoutMs: number;
  /** A receiver's answer headers must arrive within this time for success. */
  deliveryTimeoutMs: number;
  /** Delays between delivery attempts, in seconds, after the immediate first one. */
  retryScheduleSeconds: number[];
  /** How long a rotated-out signing secret keeps signing, second, after a rotation (docs/api.md 8.5). */
  signingSecretOverlapHours: number;
  /** testWebhook calls the API has in flight at once, over all instances (docs/api.md 8.6). */
  testConcurrency: number;
}

/** The notifier's share of the work and its pacing. */
export interface NotifierConfig {
  /** Requests in flight at once: in all, for one account, to one receiver origin (docs/api.md section 11). */
  concurrency: number;
  accountConcurrency: number;
  endpointConcurrency: number;
  partitions: number;
  partition: number;
  checkpointIntervalMs: number;
  /** Events the notifier follows between snapshots of its state; 0: no snapshots. */
  snapshotEvery: number;
  /** Most messages (or acks) one notification carries when they waited for the one before it. */
  batchMax: number;
  /** Most bytes one notification's body takes (a single larger item travels alone). */
  batchBytes: number;
  /** Hours before expiry at which an instance notice goes out (docs/api.md 8.9). */
  expiryNoticeHours: number[];
  /** WEBHOOK_DISABLE_AFTER_HOURS: failures for this long with no success switch delivery off
   * (docs/api.md section 12); 0: never. */
  disableAfterHours: number;
  /** MESSAGE_RETENTION_DAYS: days after which a day's message data keys are erased; 0 keeps them
   * forever (docs/api.md section 9). The notifier sweeps. */
  messageRetentionDays: number;
}

/** Requests a minute per account on the account host, per instance on the instance host, and
 * authentication failures a minute per source address; recordings the ingest host has in flight at
 * once; 0 turns a limit off. */
export interface RateLimitsConfig {
  accountPerMinute: number;
  instancePerMinute: number;
  authFailuresPerMinute: number;
  ingestInFlight: number;
}

/** The secrets the service is given (or makes for development, secrets.ts). */
export interface SecretsConfig {
  /** Bearer token of the internal ingest host. */
  internalToken: string;
  /** 32-byte key that encrypts webhook signing secrets at rest. */
  secretsKey: Buffer;
}

/** The package catalogue in use, and the file it was read from. */
export interface PackagesConfig {
  file: string;
  catalogue: PackageDefinition[];
}

/** The lowest level a log line is written at. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** How much the processes log. */
export interface LogConfig {
  level: LogLevel;
}

const PORT_MAX = 65535;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The listeners' section (HOST, INTERNAL_HOST, the ports, SHUTDOWN_GRACE_MS, PUBLIC_API_URL). */
export function readHttp(read: EnvReader): HttpConfig {
  const http: HttpConfig = {
    host: read.string('HOST', '0.0.0.0'),
    internalHost: read.string('INTERNAL_HOST', '127.0.0.1'),
    accountPort: read.integer('ACCOUNT_PORT', 8080, 0, PORT_MAX),
    apiPort: read.integer('API_PORT', 8081, 0, PORT_MAX),
    internalPort: read.integer('INTERNAL_PORT', 8082, 0, PORT_MAX),
    notifierPort: read.integer('NOTIFIER_PORT', 8083, 0, PORT_MAX),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    publicApiUrl: readPublicApiUrl(read),
  };
  for (const [name, address] of [
    ['HOST', http.host],
    ['INTERNAL_HOST', http.internalHost],
  ]) {
    if (!isIP(address) && !HOST_NAME.test(address))
      read.problems.push(`${name}: must be an IP address or a host name (got "${address}")`);
  }
  const ports = {
    ACCOUNT_PORT: http.accountPort,
    API_PORT: http.apiPort,
    INTERNAL_PORT: http.internalPort,
    NOTIFIER_PORT: http.notifierPort,
  };
  const seen = new Map<number, string>();
  for (const [name, port] of Object.entries(ports)) {
    const other = seen.get(port);
    if (port !== 0 && other) read.problems.push(`${name}: ${port} is also ${other}; each listener needs its own port`);
    seen.set(port, name);
  }
  return http;
}

function readPublicApiUrl(read: EnvReader): string {
  const raw = read.string('PUBLIC_API_URL', '').trim();
  if (raw === '') return '';
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) {
    read.problems.push(
      `PUBLIC_API_URL: must be an absolute http or https URL without credentials, query or fragment (got "${raw}")`,
    );
    return '';
  }
  // The page appends operation names (`/webhook`) to it.
  return url.href.replace(/\/+$/, '');
}

/** The store's section: DATA_DIR, EVENT_STORE, READ_MODEL_FILE and the waits on the store. */
export function readStore(read: EnvReader, cwd: string): StoreConfig {
  const dataDir = resolve(cwd, read.string('DATA_DIR', './data'));
  return {
    dataDir,
    eventStore: readEventStore(read, dataDir),
    readModelFile: resolve(dataDir, read.string('READ_MODEL_FILE', 'read-models.sqlite')),
    lockTimeoutMs: read.integer('STORE_LOCK_TIMEOUT_MS', 5000, 1, 120_000),
    conflictRetries: read.integer('CONFLICT_RETRIES', 5, 0, 100),
    readModelWaitMs: read.integer('READ_MODEL_WAIT_MS', 5000, 1, 120_000),
  };
}

function readEventStore(read: EnvReader, dataDir: string): EventStoreLocation {
  const raw = read.env['EVENT_STORE'];
  const embedded: EventStoreLocation = { kind: 'embedded', file: join(dataDir, 'events.sqlite') };
  if (raw === undefined || raw === '' || raw === 'embedded') return embedded;
  if (/^esdb(\+discover)?:\/\/[^\s]+$/.test(raw)) return { kind: 'esdb', connectionString: raw };
  read.problems.push(`EVENT_STORE: must be "embedded" or an esdb:// connection string`);
  return embedded;
}

const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** The webhooks' section: allowed targets, timeouts, the retry schedule, the secrets' overlap. */
export function readWebhooks(read: EnvReader): WebhooksConfig {
  return {
    allowPrivateTargets: read.boolean('ALLOW_PRIVATE_WEBHOOK_TARGETS', false),
    allowHttp: read.boolean('ALLOW_HTTP_WEBHOOKS', false),
    dnsTimeoutMs: read.integer('DNS_TIMEOUT_MS', 2000, 1, 60_000),
    deliveryTimeoutMs: read.integer('DELIVERY_TIMEOUT_MS', 15_000, 100, 120_000),
    retryScheduleSeconds: readSchedule(read),
    // Up to 30 days; 0 stops the old secret at once. Fractions of an hour let tests see an overlap end.
    signingSecretOverlapHours: read.decimal('SIGNING_SECRET_OVERLAP_HOURS', 24, 0, 720),
    testConcurrency: read.integer('TEST_WEBHOOK_CONCURRENCY', 32, 1, 10_000),
  };
}

function readSchedule(read: EnvReader): number[] {
  const raw = read.env['RETRY_SCHEDULE'];
  if (raw === undefined || raw === '') return DEFAULT_RETRY_SCHEDULE;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d <= 0 || d > 7 * 24 * 3600) || raw.trim() === '') {
    read.problems.push(
      `RETRY_SCHEDULE: must be comma-separated seconds, each above 0 and at most a week (got "${raw}")`,
    );
    return DEFAULT_RETRY_SCHEDULE;
  }
  return delays;
}

const DEFAULT_EXPIRY_NOTICE_HOURS = [72, 24];
/** The notifier's section: its share of the instances, concurrency and pacing. */
export function readNotifier(read: EnvReader): NotifierConfig {
  const notifier: NotifierConfig = {
    concurrency: read.integer('NOTIFIER_CONCURRENCY', 64, 1, 10_000),
    accountConcurrency: read.integer('NOTIFIER_ACCOUNT_CONCURRENCY', 32, 1, 10_000),
    endpointConcurrency: read.integer('NOTIFIER_ENDPOINT_CONCURRENCY', 32, 1, 10_000),
    partitions: read.integer('NOTIFIER_PARTITIONS', 1, 1, 1024),
    partition: read.integer('NOTIFIER_PARTITION', 0, 0, 1023),
    checkpointIntervalMs: read.integer('NOTIFIER_CHECKPOINT_INTERVAL_MS', 1000, 10, 600_000),
    snapshotEvery: read.integer('NOTIFIER_SNAPSHOT_EVERY', 50_000, 0, 100_000_000),
    batchMax: read.integer('NOTIFICATION_BATCH_MAX', 100, 1, 1000),
    batchBytes: read.integer('NOTIFICATION_BATCH_BYTES', 262_144, 1024, 16 * 1024 * 1024),
    // Decimals allowed, so that tests can put marks seconds apart.
    expiryNoticeHours: read.decimalList('EXPIRY_NOTICE_HOURS', DEFAULT_EXPIRY_NOTICE_HOURS, 876_000, 'hours'),
    messageRetentionDays: read.integer('MESSAGE_RETENTION_DAYS', 30, 0, 36_500),
    // Decimals allowed, so that tests can switch an endpoint off within seconds.
    disableAfterHours: read.decimal('WEBHOOK_DISABLE_AFTER_HOURS', 120, 0, 876_000),
  };
  if (notifier.partition >= notifier.partitions) {
    read.problems.push(`NOTIFIER_PARTITION: must be below NOTIFIER_PARTITIONS (${notifier.partitions})`);
  }
  return notifier;
}

/** The rate-limit variables, their defaults and bounds (0 turns a limit off). */
export const RATE_LIMIT_VARIABLES = {
  accountPerMinute: { name: 'RATE_LIMIT_ACCOUNT_PER_MINUTE', fallback: 600, max: 1_000_000 },
  instancePerMinute: { name: 'RATE_LIMIT_INSTANCE_PER_MINUTE', fallback: 600, max: 1_000_000 },
  authFailuresPerMinute: { name: 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', fallback: 30, max: 1_000_000 },
  ingestInFlight: { name: 'INGEST_MAX_IN_FLIGHT', fallback: 256, max: 1_000_000 },
} as const satisfies Record<keyof RateLimitsConfig, { name: string; fallback: number; max: number }>;

/** The rate limits' section (RATE_LIMIT_*). */
export function readRateLimits(read: EnvReader): RateLimitsConfig {
  const limit = ({ name, fallback, max }: { name: string; fallback: number; max: number }) =>
    read.integer(name, fallback, 0, max);
  return {
    accountPerMinute: limit(RATE_LIMIT_VARIABLES.accountPerMinute),
    instancePerMinute: limit(RATE_LIMIT_VARIABLES.instancePerMinute),
    authFailuresPerMinute: limit(RATE_LIMIT_VARIABLES.authFailuresPerMinute),
    ingestInFlight: limit(RATE_LIMIT_VARIABLES.ingestInFlight),
  };
}

/** The package catalogue from `file` (PACKAGES_FILE), the default catalogue when there is none. */
export function readPackages(read: EnvReader, file: string): PackagesConfig {
  if (!existsSync(file)) {
    read.problems.push(`PACKAGES_FILE: ${file} does not exist`);
    return { file, catalogue: [] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    read.problems.push(`PACKAGES_FILE: ${file} is not valid JSON (${(error as Error).message})`);
    return { file, catalogue: [] };
  }
  const result = parsePackageCatalogue(parsed);
  if (!result.ok) {
    for (const problem of result.problems) read.problems.push(`PACKAGES_FILE: ${problem}`);
    return { file, catalogue: [] };
  }
  return { file, catalogue: result.packages };
}
