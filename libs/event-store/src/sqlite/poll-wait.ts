import type { EventEmitter } from 'node:events';

/** How often a live subscription looks for other processes' appends while the log is quiet. */
export const QUIET_POLL_MS = 10;

/**
 * How soon it looks again while the log is moving. The notifier learns of the API's messages this
 * way: at 2,000 messages/s the fixed 10 ms wait of before put a p50 of 7-12 ms between the ingest
 * host's answer and the receiver's arrival, 2 ms one of 5-6 ms, for about 6 % more notifier CPU
 * per message at 1,000/s (bench/README, "Kept: a moving log is looked at every 2 ms").
 */
export const BUSY_POLL_MS = 2;

/**
 * How long a live subscription waits before it looks for other processes' appends again: `busy`
 * after a look that found the log moved, then twice as long after each look that found nothing
 * new, up to `quiet`. A moving log is followed closely and a quiet one costs a look every `quiet`.
 */
export function nextPollWait(
  previous: number,
  moved: boolean,
  { busy, quiet }: { busy: number; quiet: number },
): number {
  return moved ? busy : Math.min(previous * 2, quiet);
}

/** Resolves on the next of `wakes` that `signals` emits (an append of this client, a nudge), after
 * `ms`, or on abort, whichever comes first. */
export function pollWait(
  signals: EventEmitter,
  ms: number,
  wakes: readonly string[],
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const wake of wakes) signals.off(wake, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const wake of wakes) signals.once(wake, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
