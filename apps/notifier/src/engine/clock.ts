import { isoAt } from '@gw/domain-core';

/**
 * The notifier's one source of time. Time is an input of the notifier workflow (its `now`), of the
 * retry schedule and of the instance notices; the engine asks this clock and nothing else (a lint
 * rule keeps `Date.now()` and `new Date()` out of the engine), so that unit specs drive it with a
 * fake one.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The system's wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** The clock's time as the log and the workflow write it (ISO 8601 UTC with milliseconds). */
export function isoNow(clock: Clock): string {
  return isoAt(clock.now());
}
