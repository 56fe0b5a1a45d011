import { setTimeout as sleep } from 'node:timers/promises';

/** Today's UTC day, `YYYY-MM-DD`. */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Waits, if the UTC day ends within `marginMs`, until it has ended: a test that records traffic and
 * then reads it back by "today" (getUsage, its chart) must not straddle midnight. Waits at most
 * `marginMs` plus a second, and not at all on most of the day.
 */
export async function clearOfUtcMidnight(marginMs: number): Promise<void> {
  const now = Date.now();
  const untilMidnight = 86_400_000 - (now % 86_400_000);
  if (untilMidnight <= marginMs) await sleep(untilMidnight + 1000);
}
