import { normalizeEmail } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import type { AccountIdentity } from './accounts/account-identity';
import { accountAggregate } from './streams';
import { hashSecret, newSecret } from './secrets';

/**
 * Gives an account a new API key (docs/api.md 8.3, the operator's way) and returns it, which exists
 * in clear only in this return value; the old key is refused from then on. Throws NoSuchAccount for
 * an e-mail address that has no account (or an erased one).
 */
export async function resetApiKey(
  store: EventStore,
  identity: AccountIdentity,
  email: string,
  now: string,
  conflictRetries: number,
): Promise<{ email: string; apikey: string }> {
  const apikey = newSecret('gwk');
  await accountAggregate.handle(
    store,
    identity.accountId(email),
    { type: 'ResetApiKey', data: { apiKeyHash: hashSecret(apikey), now } },
    { conflictRetries },
  );
  // The address as the operator gave it, normalized: the store holds it sealed only.
  return { email: normalizeEmail(email), apikey };
}
