/**
 * How long to wait before retrying after `attempt` failures in a row (0 for the first retry): 100 ms,
 * doubled each time, at most `maxMs`. Whatever keeps failing (an unreachable store, a dropped
 * subscription) is retried soon at first and then about every `maxMs`, never in a tight loop.
 */
export function retryDelayMs(attempt: number, maxMs = 5000): number {
  // 2 ** attempt grows to Infinity, never past it, so the cap holds however long the outage lasts.
  return Math.min(maxMs, 100 * 2 ** attempt);
}
