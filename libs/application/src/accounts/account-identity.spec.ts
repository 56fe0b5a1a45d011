import { randomUUID } from 'node:crypto';
import { MemoryEventStore } from '@gw/event-store/memory';
import {
  AccountAlreadyExists,
  AccountHasActiveInstances,
  accountStreamName,
  AccountWasErased,
  NoSuchAccount,
} from '@gw/domain-accounts';
import { registerAccount } from '../register-account';
import { resetApiKey } from '../reset-api-key';
import { accountKeyStreamName, AccountIdentity } from './account-identity';
import { eraseAccount } from './erase-account';

const now = '2026-01-10T00:00:00.000Z';
const identity = new AccountIdentity(Buffer.alloc(32, 7));

async function addInstance(
  store: MemoryEventStore,
  instanceId: string,
  accountId: string,
  expiresAt: string,
): Promise<void> {
  const data = {
    instanceId,
    accountId,
    packageId: 'trial',
    tokenHash: 'sha256:x',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt,
  };
  await store.append(`instance-${instanceId}`, [{ id: randomUUID(), type: 'InstanceCreated', data }], 'no_stream');
}

describe('account ids and sealed addresses (docs/api.md 9)', () => {
  it('names an account by a keyed hash of its address: the same for every spelling, different under another key', () => {
    const id = identity.accountId('ann@example.com');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(identity.accountId(' Ann@Example.COM ')).toBe(id);
    expect(identity.accountId('bob@example.com')).not.toBe(id);
    expect(new AccountIdentity(Buffer.alloc(32, 8)).accountId('ann@example.com')).not.toBe(id);
  });

  it('stores the address nowhere in clear, and it opens under the account’s data key', async () => {
    const store = new MemoryEventStore();
    await registerAccount(store, identity, 'Ann@Example.com', now);
    const all = await store.readAll();
    expect(JSON.stringify(all.map((e) => [e.streamName, e.data, e.metadata])).toLowerCase()).not.toContain(
      'ann@example.com',
    );
    const accountId = identity.accountId('ann@example.com');
    expect(all.map((e) => [e.streamName, e.type])).toEqual([
      [accountKeyStreamName(accountId), 'AccountKeyCreated'],
      [accountStreamName(accountId), 'AccountRegistered'],
    ]);
    const sealed = (all[1].data as { email: string }).email;
    expect(await identity.openEmail(store, accountId, sealed)).toBe('ann@example.com');
  });

  it('of two registrations of one address racing, exactly one succeeds, with one data key', async () => {
    const store = new MemoryEventStore();
    const outcomes = await Promise.allSettled([
      registerAccount(store, identity, 'ann@example.com', now),
      registerAccount(store, identity, 'ANN@example.com', now),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: expect.any(AccountAlreadyExists) });
    expect(await store.readStream(accountKeyStreamName(identity.accountId('ann@example.com')))).toHaveLength(1);
  });
});

describe('erasing an account (docs/api.md 9)', () => {
  it('is refused while an instance is active, and allowed once it has expired', async () => {
    const store = new MemoryEventStore();
    await registerAccount(store, identity, 'ann@example.com', now);
    const accountId = identity.accountId('ann@example.com');
    await addInstance(store, 'i-old', accountId, '2026-01-05T00:00:00.000Z');
    await addInstance(store, 'i-live', accountId, '2026-02-01T00:00:00.000Z');
    await addInstance(store, 'i-other', identity.accountId('bob@example.com'), '2026-02-01T00:00:00.000Z');
    await expect(eraseAccount(store, identity, 'ann@example.com', now, 0)).rejects.toEqual(
      new AccountHasActiveInstances(1),
    );
    expect(await store.readStream(accountKeyStreamName(accountId))).toHaveLength(1);
    await expect(eraseAccount(store, identity, 'ann@example.com', '2026-02-01T00:00:00.000Z', 0)).resolves.toBe(
      accountId,
    );
  });

  it('destroys the data key, so the address never opens again; the account cannot be reset, erased or registered again', async () => {
    const store = new MemoryEventStore();
    await registerAccount(store, identity, 'ann@example.com', now);
    const accountId = identity.accountId('ann@example.com');
    const [registered] = await store.readStream(accountStreamName(accountId));
    await eraseAccount(store, identity, 'ann@example.com', now, 0);

    expect(await store.readStream(accountKeyStreamName(accountId))).toEqual([]);
    expect(await identity.openEmail(store, accountId, (registered.data as { email: string }).email)).toBeNull();
    expect((await store.readStream(accountStreamName(accountId))).map((e) => e.type)).toEqual([
      'AccountRegistered',
      'AccountErased',
    ]);
    await expect(resetApiKey(store, identity, 'ann@example.com', now, 0)).rejects.toThrow(NoSuchAccount);
    await expect(eraseAccount(store, identity, 'ann@example.com', now, 0)).rejects.toThrow(NoSuchAccount);
    await expect(registerAccount(store, identity, 'Ann@example.com', now)).rejects.toThrow(AccountWasErased);
    // The refused registration made no new key.
    expect(await store.readStream(accountKeyStreamName(accountId))).toEqual([]);
  });

  it('refuses an address without an account', async () => {
    await expect(eraseAccount(new MemoryEventStore(), identity, 'nobody@example.com', now, 0)).rejects.toThrow(
      NoSuchAccount,
    );
  });
});
