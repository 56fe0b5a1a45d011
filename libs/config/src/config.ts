import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parsePackageCatalogue, type PackageDefinition } from '@gw/domain-instances';

export type EventStoreSetting = { kind: 'embedded'; file: string } | { kind: 'esdb'; connectionString: string };

/** Everything the apps read from the environment, checked once at start-up. */
export interface AppConfig {
  mode: 'development' | 'production' | 'test';
  host: string;
  accountPort: number;
  apiPort: number;
  dataDir: string;
  eventStore: EventStoreSetting;
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
    if (/[\x00-\x1f]/.test(value)) this.problems.push(`${name}: must not contain control characters`);
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
    accountPort: read.integer('ACCOUNT_PORT', 8080, 0, PORT_MAX),
    apiPort: read.integer('API_PORT', 8081, 0, PORT_MAX),
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
    demoAccount: read.boolean('DEMO_ACCOUNT', mode === 'development'),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
  config.packages = readPackages(read, packagesFile);
  if (mode === 'production' && config.demoAccount) read.problems.push('DEMO_ACCOUNT: must not be true in production');
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

function readEventStore(read: Reader, env: Env, dataDir: string): EventStoreSetting {
  const raw = env['EVENT_STORE'];
  if (raw === undefined || raw === '' || raw === 'embedded') {
    return { kind: 'embedded', file: join(dataDir, 'events.sqlite') };
  }
  if (/^esdb(\+discover)?:\/\//.test(raw)) {
    read.problems.push('EVENT_STORE: the EventStoreDB adapter is not part of this version yet; use "embedded"');
    return { kind: 'esdb', connectionString: raw };
  }
  read.problems.push(`EVENT_STORE: must be "embedded" or an esdb:// connection string`);
  return { kind: 'embedded', file: join(dataDir, 'events.sqlite') };
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
