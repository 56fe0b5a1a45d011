import { chmodSync, existsSync, statSync } from 'node:fs';
import type { SecretsConfig, StoreConfig, WebhooksConfig } from './sections';

/** The parts of the configuration production checks (config.ts reads them, then asks here). */
interface Checked {
  demoAccount: boolean;
  webhooks: Pick<WebhooksConfig, 'allowPrivateTargets' | 'allowHttp'>;
  secrets: Pick<SecretsConfig, 'secretsKey'>;
  store: Pick<StoreConfig, 'dataDir'>;
}

/** Fewest different characters (INTERNAL_TOKEN) or byte values (SECRETS_KEY) a production secret
 * may have: a value made of a few repeated ones (64 zeros, `abab…`) is a placeholder, not a secret. */
const MIN_DISTINCT = 16;

/**
 * What production refuses (docs/api.md section 5): the switches meant for local development and
 * tests, an ingest token or a secrets key too weak to stand as a secret, and a DATA_DIR that cannot
 * be made private to this user. Each problem names its variable and never repeats a secret.
 */
export function productionProblems(config: Checked, token: string): string[] {
  const problems: string[] = [];
  const refuse = (name: string) =>
    problems.push(`${name}: must not be true in production (it is for local development and tests)`);
  if (config.webhooks.allowPrivateTargets) refuse('ALLOW_PRIVATE_WEBHOOK_TARGETS');
  if (config.webhooks.allowHttp) refuse('ALLOW_HTTP_WEBHOOKS');
  if (config.demoAccount) refuse('DEMO_ACCOUNT');
  if (token !== '' && (token.length < 32 || new Set(token).size < MIN_DISTINCT)) {
    problems.push(
      `INTERNAL_TOKEN: must be at least 32 characters with at least ${MIN_DISTINCT} different ones in production`,
    );
  }
  const key = config.secrets.secretsKey;
  if (key.length === 32 && new Set(key).size < MIN_DISTINCT) {
    problems.push(
      `SECRETS_KEY: must hold at least ${MIN_DISTINCT} different byte values in production (32 random bytes)`,
    );
  }
  const dataDir = privateDataDirProblem(config.store.dataDir);
  if (dataDir) problems.push(dataDir);
  return problems;
}

/**
 * Makes an existing DATA_DIR private to this user (0700); why it could not, or null. A missing one
 * is left to be made, with mode 0700, by whatever writes there first; `mkdir` applies its mode only
 * to a folder it creates, so one that exists (made by hand, by an older version, restored from a
 * backup) is narrowed here, and checked after: some file systems accept a chmod and ignore it.
 */
function privateDataDirProblem(dataDir: string): string | null {
  if (!existsSync(dataDir)) return null;
  try {
    chmodSync(dataDir, 0o700);
    if ((statSync(dataDir).mode & 0o077) !== 0)
      return `DATA_DIR: ${dataDir} stays readable by other users after chmod 0700`;
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown error';
    return `DATA_DIR: ${dataDir} cannot be made private to this user (chmod 0700 failed: ${code})`;
  }
}
