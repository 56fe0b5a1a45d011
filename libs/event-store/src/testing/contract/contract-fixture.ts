import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type {
  EventStore,
  EventToAppend,
  RecordedEvent,
  SubscribeOptions,
  SubscriptionMessage,
} from '../../event-store.port';

/** A fresh, empty store plus a way to open a second client on the same data (another connection,
 * as another process would have). */
export interface StoreFixture {
  store: EventStore;
  openAnother(): Promise<EventStore>;
  /**
   * Starts another process that appends to this store one event at a time, printing each event id
   * on its own stdout line once the append has returned (see ../append-child.ts). Absent for a store
   * that lives in one process's memory.
   */
  spawnAppender?(streamPrefix: string, concurrency?: number): ChildProcess;
  /** Transactions the store has committed for `store`'s own appends, where the adapter counts them
   * (the embedded store's group commit); absent where the server does the grouping. */
  commits?(store: EventStore): number;
  cleanup(): Promise<void>;
}

export interface EventStoreContractHarness {
  name: string;
  create(): Promise<StoreFixture>;
  /** false for a store that claims no durability (in memory): the SIGKILL cases are not part of
   * its contract, so they are not defined for it (not skipped: they do not exist there). */
  durable?: boolean;
  /** true for EventStoreDB, whose soft delete leaves a deleted stream's events in `$all` (and so in
   * `readAll` and subscriptions) until a scavenge. */
  deleteKeepsEventsInGlobalLog?: boolean;
  /** true for EventStoreDB, which reads a required stream (AppendOptions.requires) just before the
   * append rather than in the append's own transaction. */
  checksRequiredStreamApart?: boolean;
  /** false for EventStoreDB, which has no index of stream names to list them by (the port's
   * optional `streamNames`). */
  listsStreams?: boolean;
}

/** What each part of the suite runs against: the harness, and the fixture made for the current test. */
export interface ContractContext {
  readonly harness: EventStoreContractHarness;
  fixture: StoreFixture;
  store: EventStore;
}

/** A new event, with a fresh id. */
export const event = (type = 'Tested', data: unknown = { n: 1 }): EventToAppend => ({ id: randomUUID(), type, data });
/** A stream name no other test uses. */
export const stream = (prefix = 'test') => `${prefix}-${randomUUID()}`;

/** Collects subscription messages until `until` says stop or the time runs out. */
export async function collect(
  store: EventStore,
  options: SubscribeOptions,
  until: (events: RecordedEvent[], message: SubscriptionMessage) => boolean,
  timeoutMs = 10_000,
): Promise<{ events: RecordedEvent[]; messages: SubscriptionMessage[] }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: RecordedEvent[] = [];
  const messages: SubscriptionMessage[] = [];
  try {
    for await (const message of store.subscribeToAll({ ...options, signal: controller.signal })) {
      messages.push(message);
      if (message.kind === 'event') events.push(message.event);
      if (until(events, message)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { events, messages };
}
