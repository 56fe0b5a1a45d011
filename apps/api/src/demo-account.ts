import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerAccount, type AccountIdentity } from '@gw/application';
import type { StoreConfig } from '@gw/config';
import { AccountAlreadyExists, AccountWasErased } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';

const DEMO_EMAIL = 'demo@example.com';

/**
 * Development only: creates a demo account on first start. Its address and API key go to a file
 * readable by the owner only; the terminal is told where, so that neither reaches any log.
 */
export async function ensureDemoAccount(
  config: StoreConfig,
  store: EventStore,
  identity: AccountIdentity,
  logger: Logger,
): Promise<void> {
  const file = join(config.dataDir, 'demo-account.json');
  if (existsSync(file)) return;
  try {
    const account = await registerAccount(store, identity, DEMO_EMAIL, new Date().toISOString());
    writeFileSync(file, `${JSON.stringify(account, null, 2)}\n`, { mode: 0o600 });
    process.stderr.write(`\nDemo account created (development mode): its address and API key are in ${file}\n\n`);
  } catch (error) {
    // Another data dir on the same store made it, or an operator erased it: either way the service
    // starts without one here.
    if (error instanceof AccountWasErased) logger.info('the demo account was erased; none is made again');
    else if (error instanceof AccountAlreadyExists)
      logger.info('demo account exists already; its key is not stored here');
    else throw error;
  }
}
