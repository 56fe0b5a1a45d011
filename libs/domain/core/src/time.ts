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

/**
 * Whether `iso` is in the form `Date.prototype.toISOString` writes for years 0 to 9999
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`): two such strings compare as text exactly as their moments compare.
 */
function isCanonicalIso(iso: string): boolean {
  return (
    iso.length === 24 &&
    iso.charCodeAt(23) === 90 && // Z
    iso.charCodeAt(4) === 45 && // -
    iso.charCodeAt(7) === 45 &&
    iso.charCodeAt(10) === 84 && // T
    iso.charCodeAt(13) === 58 && // :
    iso.charCodeAt(16) === 58 &&
    iso.charCodeAt(19) === 46 // .
  );
}

/** True while `now` is strictly before `expiresAt`. */
export function isBefore(now: string, expiresAt: string): boolean {
  // Every status read asks this, usually twice: comparing the text spares two Date.parse calls.
  if (isCanonicalIso(now) && isCanonicalIso(expiresAt)) return now < expiresAt;
  return Date.parse(now) < Date.parse(expiresAt);
}

let lastMs = Number.NaN;
let lastIso = '';

/** A moment (milliseconds since the epoch) as an ISO 8601 UTC string with milliseconds. */
export function isoAt(ms: number): string {
  // Many requests of one millisecond ask for the same text: the last one is kept.
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** Adds milliseconds to an ISO timestamp. */
export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** Adds hours (decimals allowed, negative for earlier) to an ISO timestamp. */
export function addHours(iso: string, hours: number): string {
  return addMs(iso, Math.round(hours * HOUR_MS));
}
