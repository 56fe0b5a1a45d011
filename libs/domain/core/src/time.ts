const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Adds whole days to an ISO timestamp; pure, no clock involved. */
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * DAY_MS).toISOString();
}

/** The later of two ISO timestamps. */
export function maxIso(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

/** True while `now` is strictly before `expiresAt`. */
export function isBefore(now: string, expiresAt: string): boolean {
  return Date.parse(now) < Date.parse(expiresAt);
}

/** Adds milliseconds to an ISO timestamp. */
export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** Adds hours (decimals allowed, negative for earlier) to an ISO timestamp. */
export function addHours(iso: string, hours: number): string {
  return addMs(iso, Math.round(hours * HOUR_MS));
}
