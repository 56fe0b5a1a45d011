import { MemoryEventStore } from '@gw/event-store/memory';
import { NoSuchAccount, accountStreamName } from '@gw/domain-accounts';
import { AccountIdentity } from './accounts/account-identity';
import { registerAccount } from './register-account';
import { resetApiKey } from './reset-api-key';
import { hashSecret } from './secrets';

describe('resetting an API key (the operator’s way, docs/api.md 8.3)', () => {
  const now = '2026-01-01T00:00:00.000Z';
  const identity = new AccountIdentity(Buffer.alloc(32, 7));

  it('records only the new key’s hash, and returns the key with the address lowercased', async () => {
    const store = new MemoryEventStore();
    const created = await registerAccount(store, identity, 'ann@example.com', now);
    const reset = await resetApiKey(store, identity, ' Ann@Example.COM ', now, 0);
    expect(reset.email).toBe('ann@example.com');
    expect(reset.apikey).toMatch(/^gwk_[A-Za-z0-9_-]{32}$/);
    expect(reset.apikey).not.toBe(created.apikey);
    const accountId = identity.accountId('ann@example.com');
    const events = await store.readStream(accountStreamName(accountId));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['AccountRegistered', expect.objectContaining({ accountId, apiKeyHash: hashSecret(created.apikey) })],
      ['ApiKeyReset', { accountId, apiKeyHash: hashSecret(reset.apikey), resetAt: now }],
    ]);
  });

  it('refuses an address that has no account, writing nothing', async () => {
    const store = new MemoryEventStore();
    await expect(resetApiKey(store, identity, 'nobody@example.com', now, 0)).rejects.toThrow(NoSuchAccount);
    expect(await store.readAll()).toEqual([]);
  });
});
