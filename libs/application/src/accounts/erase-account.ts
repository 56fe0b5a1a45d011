import { INSTANCE_STREAM_PREFIX, instanceStatus, instanceStreamName } from '@gw/domain-instances';
import type { EventStore } from '@gw/event-store';
import { readState } from '../command-handler';
import { accountAggregate, instanceStream } from '../streams';
import type { AccountIdentity } from './account-identity';

/** Log events read per page while looking for an account's instances. */
const PAGE = 1000;

/** The ids of the instances an account created, from their creation events (the only events
 * that name the account). */
export async function instancesOfAccount(store: EventStore, accountId: string): Promise<string[]> {
  const ids: string[] = [];
  let after: bigint | undefined;
  for (;;) {
    const page = await store.readAll({
      after,
      maxCount: PAGE,
      filter: { eventTypes: ['InstanceCreated'], streamNamePrefixes: [INSTANCE_STREAM_PREFIX] },
    });
    for (const event of page) {
      const data = event.data as { instanceId?: unknown; accountId?: unknown };
      if (data.accountId === accountId && typeof data.instanceId === 'string') ids.push(data.instanceId);
    }
    if (page.length < PAGE) return ids;
    after = page[page.length - 1].position;
  }
}

/** How many of an account's instances are active now: neither deleted nor expired. */
export async function countActiveInstances(store: EventStore, accountId: string, now: string): Promise<number> {
  let active = 0;
  for (const instanceId of await instancesOfAccount(store, accountId)) {
    const { state } = await readState(store, instanceStreamName(instanceId), instanceStream);
    if (state.status === 'created' && instanceStatus(state.expiresAt, now) === 'active') active += 1;
  }
  return active;
}

/**
 * Erases an account (docs/api.md 9): refused (AccountHasActiveInstances) while it has an active
 * instance, NoSuchAccount for an address without an account. Destroys the account's data key, so
 * its sealed address can never be read again, then records AccountErased, after which it cannot
 * sign in and its address cannot be registered again. Returns the account's id.
 */
export async function eraseAccount(
  store: EventStore,
  identity: AccountIdentity,
  email: string,
  now: string,
  conflictRetries: number,
): Promise<string> {
  const accountId = identity.accountId(email);
  await accountAggregate.handle(
    store,
    accountId,
    async (state) => ({
      type: 'EraseAccount',
      data: {
        activeInstances: state.status === 'registered' ? await countActiveInstances(store, accountId, now) : 0,
        now,
      },
    }),
    {
      conflictRetries,
      // The key goes once the erasure is accepted and before the record of it: a crash in between
      // leaves an account whose address is unreadable already, and running the erasure again
      // completes it. The other order could leave a readable address behind an AccountErased.
      beforeAppend: () => identity.eraseKey(store, accountId),
    },
  );
  return accountId;
}
