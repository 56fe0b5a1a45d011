import { accountDecider, accountStreamName, normalizeEmail } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import { handleCommand } from './command-handling';
import { hashSecret, newSecret } from './secrets';

/**
 * Provisions an account and returns its API key, which exists in clear only in this return value.
 * Throws AccountAlreadyExists for an e-mail address that has an account.
 */
export async function registerAccount(store: EventStore, email: string, now: string): Promise<{ email: string; apikey: string }> {
  const apikey = newSecret('gwk');
  await handleCommand(
    store,
    accountStreamName(email),
    accountDecider,
    () => ({ type: 'RegisterAccount' as const, data: { email, apiKeyHash: hashSecret(apikey), now } }),
    // A concurrent registration of the same address loses the race; one reload then reports it
    // as already existing rather than as a conflict.
    1,
  );
  return { email: normalizeEmail(email), apikey };
}
