import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { parsePackageCatalogue, type PackageDefinition } from '@gw/domain-instances';
import type { EventStoreLocation } from '@gw/event-store';


/** Everything the apps read from the environment, checked once at start-up. */
export interface AppConfig {
  mode: 'development' | 'production' | 'test';
  /** Bind address of the public listeners (account and instance hosts). */
  host: string;
  /** Bind address of the internal listeners: the ingest host and the notifier's status port. */
  internalHost: string;
  accountPort: number;
  apiPort: number;
  internalPort: number;
  notifierPort: number;
  /** Bearer token of the internal ingest host. */
  internalToken: string;
  /** 32-byte key that encrypts webhook signing secrets at rest. */
  secretsKey: Buffer;
  /** Delays between delivery attempts, in seconds, after the immediate first one. */
  retryScheduleSeconds: number[];
  /** A receiver's answer headers must arrive within this time for success. */
  deliveryTimeoutMs: number;
  notifierConcurrency: number;
  notifierPartitions: number;
  notifierPartition: number;
  notifierCheckpointIntervalMs: number;
  /** Events the notifier follows between snapshots of its state; 0: no snapshots. */
  notifierSnapshotEvery: number;
  /** Most messages (or acks) one notification carries when they waited for the one before it. */
  notificationBatchMax: number;
  /** Requests a minute per account on the account host, per instance on the instance host, and
   * authentication failures a minute per source address; 0 turns a limit off. */
  rateLimits: { accountPerMinute: number; instancePerMinute: number; authFailuresPerMinute: number };
  dataDir: string;
  eventStore: EventStoreLocation;
  readModelFile: string;
  packagesFile: string;
  packages: PackageDefinition[];
  logLevel: LogLevel;
  /** Bound on the DNS lookup made while checking a webhookUrl at registration. */
  dnsTimeoutMs: number;
  /** Internal retries of a command whose stream changed underneath it before answering 0012. */
  conflictRetries: number;
  /** How long a response waits for the read models to show a write (CONTRACT 4.7). */
  readModelWaitMs: number;
  /** How long the embedded store waits for another process's write lock before answering 0011. */
  storeLockTimeoutMs: number;
  allowPrivateWebhookTargets: boolean;
  allowHttpWebhooks: boolean;
  demoAccount: boolean;
  shutdownGraceMs: number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Every problem with the environment, named by variable, in one error. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The shipped package catalogue, used when PACKAGES_FILE is not set. It lives at the repository
 * root, which is found from here both in the sources and in the build output under dist/. */
export const DEFAULT_PACKAGES_FILE = findShippedCatalogue(__dirname);

function findShippedCatalogue(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'config', 'packages.json');
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
  }
  return join(process.cwd(), 'config', 'packages.json');
}

type Env = Record<string, string | undefined>;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    if (value === undefined || value === '') return fallback;
    if (/[\x00-\x1f]/.test(value)) {
      this.problems.push(`${name}: must not contain control characters`);
      return fallback;
    }
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      this.problems.push(`${name}: must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name}: must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}: must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}

const MODES = ['development', 'production', 'test'] as const;
const PORT_MAX = 65535;

/** Reads and checks the configuration; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const read = new Reader(env);
  const mode = read.oneOf('NODE_ENV', 'development', MODES);
  const dataDir = resolve(cwd, read.string('DATA_DIR', './data'));
  const packagesFile = resolve(cwd, read.string('PACKAGES_FILE', DEFAULT_PACKAGES_FILE));

  const config: AppConfig = {
    mode,
    host: read.string('HOST', '0.0.0.0'),
    internalHost: read.string('INTERNAL_HOST', '127.0.0.1'),
    accountPort: read.integer('ACCOUNT_PORT', 8080, 0, PORT_MAX),
    apiPort: read.integer('API_PORT', 8081, 0, PORT_MAX),
    internalPort: read.integer('INTERNAL_PORT', 8082, 0, PORT_MAX),
    notifierPort: read.integer('NOTIFIER_PORT', 8083, 0, PORT_MAX),
    internalToken: '',
    secretsKey: Buffer.alloc(0),
    retryScheduleSeconds: readSchedule(read, env),
    deliveryTimeoutMs: read.integer('DELIVERY_TIMEOUT_MS', 15_000, 100, 120_000),
    notifierConcurrency: read.integer('NOTIFIER_CONCURRENCY', 64, 1, 10_000),
    notifierPartitions: read.integer('NOTIFIER_PARTITIONS', 1, 1, 1024),
    notifierPartition: read.integer('NOTIFIER_PARTITION', 0, 0, 1023),
    notifierCheckpointIntervalMs: read.integer('NOTIFIER_CHECKPOINT_INTERVAL_MS', 1000, 10, 600_000),
    notificationBatchMax: read.integer('NOTIFICATION_BATCH_MAX', 100, 1, 1000),
    notifierSnapshotEvery: read.integer('NOTIFIER_SNAPSHOT_EVERY', 50_000, 0, 100_000_000),
    rateLimits: {
      accountPerMinute: read.integer('RATE_LIMIT_ACCOUNT_PER_MINUTE', 600, 0, 1_000_000),
      instancePerMinute: read.integer('RATE_LIMIT_INSTANCE_PER_MINUTE', 600, 0, 1_000_000),
      authFailuresPerMinute: read.integer('RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', 30, 0, 1_000_000),
    },
    dataDir,
    eventStore: readEventStore(read, env, dataDir),
    readModelFile: resolve(dataDir, read.string('READ_MODEL_FILE', 'read-models.sqlite')),
    packagesFile,
    packages: [],
    logLevel: read.oneOf('LOG_LEVEL', mode === 'test' ? 'warn' : 'info', ['debug', 'info', 'warn', 'error'] as const),
    dnsTimeoutMs: read.integer('DNS_TIMEOUT_MS', 2000, 1, 60_000),
    conflictRetries: read.integer('CONFLICT_RETRIES', 5, 0, 100),
    readModelWaitMs: read.integer('READ_MODEL_WAIT_MS', 5000, 1, 120_000),
    storeLockTimeoutMs: read.integer('STORE_LOCK_TIMEOUT_MS', 5000, 1, 120_000),
    allowPrivateWebhookTargets: read.boolean('ALLOW_PRIVATE_WEBHOOK_TARGETS', false),
    allowHttpWebhooks: read.boolean('ALLOW_HTTP_WEBHOOKS', false),
    // Only on an explicit NODE_ENV=development (npm start sets it), so that a deployment that forgot
    // NODE_ENV never gets a demo account.
    demoAccount: read.boolean('DEMO_ACCOUNT', env['NODE_ENV'] === 'development'),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
  config.packages = readPackages(read, packagesFile);
  for (const [name, address] of [['HOST', config.host], ['INTERNAL_HOST', config.internalHost]]) {
    if (!isIP(address) && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(address)) {
      read.problems.push(`${name}: must be an IP address or a host name (got "${address}")`);
    }
  }
  const ports = { ACCOUNT_PORT: config.accountPort, API_PORT: config.apiPort, INTERNAL_PORT: config.internalPort, NOTIFIER_PORT: config.notifierPort };
  const seen = new Map<number, string>();
  for (const [name, port] of Object.entries(ports)) {
    const other = seen.get(port);
    if (port !== 0 && other) read.problems.push(`${name}: ${port} is also ${other}; each listener needs its own port`);
    seen.set(port, name);
  }
  if (config.notifierPartition >= config.notifierPartitions) {
    read.problems.push(`NOTIFIER_PARTITION: must be below NOTIFIER_PARTITIONS (${config.notifierPartitions})`);
  }
  if (read.problems.length === 0) {
    config.internalToken = readInternalToken(read, env, mode, dataDir);
    config.secretsKey = readSecretsKey(read, env, mode, dataDir);
  }
  if (mode === 'production') read.problems.push(...productionProblems(config, env['INTERNAL_TOKEN'] ?? ''));
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/**
 * Switches meant for local development and tests that production refuses (CONTRACT section 5), and
 * an ingest token too weak to stand as the only guard of the internal host.
 */
function productionProblems(config: AppConfig, token: string): string[] {
  const problems: string[] = [];
  const refuse = (name: string) => problems.push(`${name}: must not be true in production (it is for local development and tests)`);
  if (config.allowPrivateWebhookTargets) refuse('ALLOW_PRIVATE_WEBHOOK_TARGETS');
  if (config.allowHttpWebhooks) refuse('ALLOW_HTTP_WEBHOOKS');
  if (config.demoAccount) refuse('DEMO_ACCOUNT');
  if (token !== '' && (token.length < 32 || new Set(token).size < 16)) {
    problems.push('INTERNAL_TOKEN: must be at least 32 characters with at least 16 different ones in production');
  }
  return problems;
}

function readEventStore(read: Reader, env: Env, dataDir: string): EventStoreLocation {
  const raw = env['EVENT_STORE'];
  if (raw === undefined || raw === '' || raw === 'embedded') {
    return { kind: 'embedded', file: join(dataDir, 'events.sqlite') };
  }
  if (/^esdb(\+discover)?:\/\/[^\s]+$/.test(raw)) return { kind: 'esdb', connectionString: raw };
  read.problems.push(`EVENT_STORE: must be "embedded" or an esdb:// connection string`);
  return { kind: 'embedded', file: join(dataDir, 'events.sqlite') };
}

const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

function readSchedule(read: Reader, env: Env): number[] {
  const raw = env['RETRY_SCHEDULE'];
  if (raw === undefined || raw === '') return DEFAULT_RETRY_SCHEDULE;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d <= 0 || d > 7 * 24 * 3600) || raw.trim() === '') {
    read.problems.push(`RETRY_SCHEDULE: must be comma-separated seconds, each above 0 and at most a week (got "${raw}")`);
    return DEFAULT_RETRY_SCHEDULE;
  }
  return delays;
}

/**
 * A secret that production must be given and that development makes once into DATA_DIR (mode 0600),
 * so that every process sharing the data dir (API, notifier, simulator) uses the same one.
 */
function developmentSecret(dataDir: string, fileName: string, make: () => string): string {
  const file = join(dataDir, fileName);
  if (!existsSync(file)) {
    // DATA_DIR holds the store and secrets: private to this user (CONTRACT section 5).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${make()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first; read theirs.
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

function readInternalToken(read: Reader, env: Env, mode: AppConfig['mode'], dataDir: string): string {
  const raw = env['INTERNAL_TOKEN'];
  if (raw !== undefined && raw !== '') {
    if (raw.length < 16 || /\s/.test(raw)) read.problems.push('INTERNAL_TOKEN: must be at least 16 characters without spaces');
    return raw;
  }
  if (mode === 'production') {
    read.problems.push('INTERNAL_TOKEN: is required in production');
    return '';
  }
  return developmentSecret(dataDir, 'internal-token', () => randomBytes(24).toString('base64url'));
}

function readSecretsKey(read: Reader, env: Env, mode: AppConfig['mode'], dataDir: string): Buffer {
  const raw = env['SECRETS_KEY'] ?? '';
  const text = raw !== '' ? raw : mode === 'production' ? '' : developmentSecret(dataDir, 'secrets.key', () => randomBytes(32).toString('base64'));
  if (text === '') {
    read.problems.push('SECRETS_KEY: is required in production (32 random bytes, base64 or hex)');
    return Buffer.alloc(0);
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    read.problems.push('SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits');
  }
  return key;
}

function readPackages(read: Reader, file: string): PackageDefinition[] {
  if (!existsSync(file)) {
    read.problems.push(`PACKAGES_FILE: ${file} does not exist`);
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    read.problems.push(`PACKAGES_FILE: ${file} is not valid JSON (${(error as Error).message})`);
    return [];
  }
  const result = parsePackageCatalogue(parsed);
  if (!result.ok) {
    for (const problem of result.problems) read.problems.push(`PACKAGES_FILE: ${problem}`);
    return [];
  }
  return result.packages;
}
