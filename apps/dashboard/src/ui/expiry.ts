/** How close an instance is to its expiry, in words, and whether that calls for a warning. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Inside this, the table warns: a renewal is due soon. */
const WARN_WITHIN_MS = 7 * DAY;

export interface Expiry {
  text: string;
  level: 'ok' | 'warn' | 'expired';
}

export function expiryOf(expiresAt: string, now: number): Expiry {
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return { text: `Expired ${span(-left)} ago`, level: 'expired' };
  if (left < WARN_WITHIN_MS) return { text: `Expires in ${span(left)}: renew soon`, level: 'warn' };
  return { text: `${span(left)} left`, level: 'ok' };
}

function span(ms: number): string {
  if (ms >= 2 * DAY) return `${Math.floor(ms / DAY)} days`;
  if (ms >= 2 * HOUR) return `${Math.floor(ms / HOUR)} hours`;
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
