import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A new secret with 192 bits of entropy; the prefix lets secret scanners recognise it. */
export function newSecret(prefix: 'gwk' | 'gwt'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** Secrets are random and long, so a plain SHA-256 is a safe one-way form to store. */
export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(presented: string, storedHash: string | undefined): boolean {
  const actual = Buffer.from(hashSecret(presented));
  const expected = Buffer.from(storedHash ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new instance id: 24 lowercase hex characters (96 random bits), safe in URLs and paths. */
export function newInstanceId(): string {
  return randomBytes(12).toString('hex');
}

export function newEventId(): string {
  return randomUUID();
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
