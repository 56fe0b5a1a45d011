import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EnvReader, type Env } from './env-reader';
import { productionProblems } from './production';
import { readSecrets } from './secrets';
import {
  readHttp,
  readNotifier,
  readPackages,
  readRateLimits,
  readStore,
  readWebhooks,
  type HttpConfig,
  type LogConfig,
  type NotifierConfig,
  type PackagesConfig,
  type RateLimitsConfig,
  type SecretsConfig,
  type StoreConfig,
  type WebhooksConfig,
} from './sections';

/** Everything the apps read from the environment, checked once at start-up, by section. */
export interface AppConfig {
  mode: 'development' | 'production' | 'test';
  /** Whether the API keeps a demo account (development only). */
  demoAccount: boolean;
  http: HttpConfig;
  store: StoreConfig;
  webhooks: WebhooksConfig;
  notifier: NotifierConfig;
  rateLimits: RateLimitsConfig;
  secrets: SecretsConfig;
  packages: PackagesConfig;
  log: LogConfig;
}

/** The sections a component may be given (everything but the process-wide switches). */
export type ConfigSectionName = Exclude<keyof AppConfig, 'mode' | 'demoAccount'>;
/** Every section's name, in the order they are read. */
export const CONFIG_SECTIONS: readonly ConfigSectionName[] = [
  'http',
  'store',
  'webhooks',
  'notifier',
  'rateLimits',
  'secrets',
  'packages',
  'log',
];

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

const MODES = ['development', 'production', 'test'] as const;

/** What a process that loads the configuration uses of it, where that is less than the apps. */
export interface ConfigNeeds {
  /** The ingest host's bearer token (INTERNAL_TOKEN): the API checks it, the operator CLI never
   * uses it. Without it (false) it is neither required in production nor made in development, and
   * `secrets.internalToken` is empty. Default true. */
  internalToken?: boolean;
  /** Only reads a store the service has written (the operator's `events list`, `audit ...`): an
   * embedded store whose file does not exist is a problem (a DATA_DIR mistyped), and so is a missing
   * development key where SECRETS_KEY is unset; nothing is made in DATA_DIR. Default false. */
  existingStore?: boolean;
}

/** Reads and checks the configuration; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd(), needs: ConfigNeeds = {}): AppConfig {
  const read = new EnvReader(env);
  const withToken = needs.internalToken ?? true;
  const mode = read.oneOf('NODE_ENV', 'development', MODES);
  const store = readStore(read, cwd);
  if (needs.existingStore && store.eventStore.kind === 'embedded' && !existsSync(store.eventStore.file))
    read.problems.push(
      `DATA_DIR: no event store at ${store.eventStore.file} (this command reads the store the service wrote and makes none)`,
    );
  const config: AppConfig = {
    mode,
    // Only on an explicit NODE_ENV=development (npm start sets it), so that a deployment that forgot
    // NODE_ENV never gets a demo account.
    demoAccount: read.boolean('DEMO_ACCOUNT', env['NODE_ENV'] === 'development'),
    http: readHttp(read),
    store,
    webhooks: readWebhooks(read),
    notifier: readNotifier(read),
    rateLimits: readRateLimits(read),
    secrets: { internalToken: '', secretsKey: Buffer.alloc(0) },
    packages: readPackages(read, resolve(cwd, read.string('PACKAGES_FILE', DEFAULT_PACKAGES_FILE))),
    log: {
      level: read.oneOf('LOG_LEVEL', mode === 'test' ? 'warn' : 'info', ['debug', 'info', 'warn', 'error'] as const),
    },
  };
  // Development secrets are written into DATA_DIR only for a configuration that is otherwise good.
  if (read.problems.length === 0)
    config.secrets = readSecrets(read, mode === 'production', store.dataDir, {
      withToken,
      makeKey: !needs.existingStore,
    });
  if (mode === 'production')
    read.problems.push(...productionProblems(config, withToken ? (env['INTERNAL_TOKEN'] ?? '') : ''));
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
