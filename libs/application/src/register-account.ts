import { accountDecider, accountStreamName, normalizeEmail } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import { handleCommand } from './command-handler';
import { accountStream } from './streams';
import { hashSecret, newSecret } from './secrets';

/**
 * Provisions an account and returns its API key, which exists in clear only in this return value.
 * Throws AccountAlreadyExists for an e-mail address that has an account.
 */
export async function registerAccount(store: EventStore, email: string, now: string): Promise<{ email: string; apikey: string }> {
  const apikey = newSecret('gwk');
  const command = { type: 'RegisterAccount' as const, data: { email, apiKeyHash: hashSecret(apikey), now } };
  await handleCommand(store, accountStreamName(email), accountStream, (state) => accountDecider.decide(command, state), {
    // A concurrent registration of the same address loses the race; one reload then reports it
    // as already existing rather than as a conflict.
    conflictRetries: 1,
  });
  return { email: normalizeEmail(email), apikey };
}
