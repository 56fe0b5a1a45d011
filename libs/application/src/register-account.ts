import { normalizeEmail, registrationRefusal } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import type { AccountIdentity } from './accounts/account-identity';
import { accountAggregate } from './streams';
import { hashSecret, newSecret } from './secrets';

/**
 * Provisions an account and returns its API key, which exists in clear only in this return value.
 * The account is stored under its id, with its address sealed (accounts/account-identity.ts).
 * Throws AccountAlreadyExists for an address that has an account, AccountWasErased for one whose
 * account was erased.
 */
export async function registerAccount(
  store: EventStore,
  identity: AccountIdentity,
  email: string,
  now: string,
): Promise<{ email: string; apikey: string }> {
  const apikey = newSecret('gwk');
  const accountId = identity.accountId(email);
  await accountAggregate.handle(
    store,
    accountId,
    async (state) => {
      // Refused before a data key is made: an erased account's key must never come back.
      const refusal = registrationRefusal(state);
      if (refusal) throw refusal;
      const sealed = await identity.sealEmail(store, accountId, email, now);
      return { type: 'RegisterAccount', data: { accountId, email: sealed, apiKeyHash: hashSecret(apikey), now } };
    },
    // A concurrent registration of the same address loses the race; one reload then reports it
    // as already existing rather than as a conflict.
    { conflictRetries: 1 },
  );
  // The address as the operator gave it, normalized: never read back from the store.
  return { email: normalizeEmail(email), apikey };
}
