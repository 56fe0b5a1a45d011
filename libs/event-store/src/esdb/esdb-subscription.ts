import type { AllStreamResolvedEvent, AllStreamSubscription } from '@eventstore/db-client';
import { asFiltered, matchesFilter } from '../event-filter';
import type { RecordedEvent, SubscribeOptions, SubscriptionMessage } from '../event-store.port';

type Item = SubscriptionMessage | { kind: 'failed'; error: unknown } | { kind: 'ended' };

/** Above this many undelivered messages the client's stream is paused (back-pressure). */
const HIGH_WATER = 1000;

/**
 * Turns the client's subscription (a stream with 'data', 'caughtUp' and filter checkpoints) into
 * the port's messages, one at a time: matching events; checkpoints for events the port's filter
 * skips and for the server filter's checkpoints; `caughtUp` at the last position seen. The stream
 * ending or failing is thrown, so the caller resubscribes after the last position it handed out.
 */
export async function* subscriptionMessages(
  subscribe: (checkpointReached: (position: bigint) => void) => AllStreamSubscription,
  options: SubscribeOptions,
  toRecorded: (resolved: AllStreamResolvedEvent) => RecordedEvent | undefined,
): AsyncIterable<SubscriptionMessage> {
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item) => {
    queue.push(item);
    if (queue.length > HIGH_WATER) subscription.pause();
    wake?.();
  };
  const subscription = subscribe((position) => push({ kind: 'checkpoint', position }));
  let last = options.after ?? 0n;

  subscription.on('data', (resolved: AllStreamResolvedEvent) => {
    const event = toRecorded(resolved);
    const position = event?.position ?? resolved.event?.position?.commit;
    if (event && matchesFilter(event, options.filter))
      push({ kind: 'event', event: asFiltered(event, options.filter) });
    else if (position !== undefined) push({ kind: 'checkpoint', position });
  });
  subscription.on('caughtUp', () => push({ kind: 'caughtUp', position: -1n }));
  subscription.on('error', (error: unknown) => push({ kind: 'failed', error }));
  subscription.on('end', () => push({ kind: 'ended' }));
  const stop = () => void subscription.unsubscribe().catch(() => undefined);
  options.signal?.addEventListener('abort', stop, { once: true });

  try {
    while (!options.signal?.aborted) {
      if (queue.length === 0) {
        // One listener per wait, removed when the wait ends: a live subscription waits after every
        // event and checkpoint, and the signal outlives all those waits.
        await new Promise<void>((resolve) => {
          const woken = () => {
            options.signal?.removeEventListener('abort', woken);
            resolve();
          };
          wake = woken;
          options.signal?.addEventListener('abort', woken, { once: true });
        });
        wake = undefined;
        continue;
      }
      const item = queue.shift()!;
      if (queue.length < HIGH_WATER / 2 && subscription.isPaused()) subscription.resume();
      if (item.kind === 'failed') throw item.error;
      if (item.kind === 'ended') throw new Error('EventStoreDB subscription ended (connection dropped)');
      if (item.kind === 'event') last = item.event.position;
      else if (item.kind === 'checkpoint') {
        if (item.position <= last) continue;
        last = item.position;
      } else {
        // Caught up: everything up to the last position seen has been handed out.
        yield { kind: 'caughtUp', position: last };
        continue;
      }
      yield item;
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    stop();
  }
}
