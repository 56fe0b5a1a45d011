import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerAccount } from '@gw/application';
import type { StoreConfig } from '@gw/config';
import { AccountAlreadyExists } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';

export const DEMO_EMAIL = 'demo@example.com';

/**
 * Development only: creates a demo account on first start. Its API key goes to a file readable by
 * the owner only; the terminal is told where, so the key itself never reaches any log.
 */
export async function ensureDemoAccount(config: StoreConfig, store: EventStore, logger: Logger): Promise<void> {
  const file = join(config.dataDir, 'demo-account.json');
  if (existsSync(file)) return;
  try {
    const account = await registerAccount(store, DEMO_EMAIL, new Date().toISOString());
    writeFileSync(file, `${JSON.stringify(account, null, 2)}\n`, { mode: 0o600 });
    process.stderr.write(`\nDemo account created (development mode): ${account.email}\n  its API key is in ${file}\n\n`);
  } catch (error) {
    if (!(error instanceof AccountAlreadyExists)) throw error;
    logger.info('demo account exists already; its key is not stored here', { email: DEMO_EMAIL });
  }
}
