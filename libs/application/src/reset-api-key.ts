import { accountDecider, accountStreamName } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import { handleCommand } from './command-handler';
import { accountStream } from './streams';
import { hashSecret, newSecret } from './secrets';

/**
 * Gives an account a new API key (docs/api.md 8.3, the operator's way) and returns it, which exists
 * in clear only in this return value; the old key is refused from then on. Throws NoSuchAccount for
 * an e-mail address that has no account.
 */
export async function resetApiKey(
  store: EventStore,
  email: string,
  now: string,
  conflictRetries: number,
): Promise<{ email: string; apikey: string }> {
  const apikey = newSecret('gwk');
  const command = { type: 'ResetApiKey' as const, data: { email, apiKeyHash: hashSecret(apikey), now } };
  const { state } = await handleCommand(store, accountStreamName(email), accountStream, (current) => accountDecider.decide(command, current), {
    conflictRetries,
  });
  if (state.status !== 'registered') throw new Error('account whose key was reset has no state');
  return { email: state.email, apikey };
}
