import { generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from './sha256';

/** A new secret with 192 bits of entropy; the prefix lets secret scanners recognise it. */
export function newSecret(prefix: 'gwk' | 'gwt'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** Secrets are random and long, so a plain SHA-256 is a safe one-way form to store. */
export function hashSecret(secret: string): string {
  return `sha256:${sha256Hex(secret)}`;
}

/** Stands in for a missing hash, so that an unknown account or instance costs the same hashing and
 * comparison as a wrong secret (timing must not tell them apart). */
const NO_HASH = hashSecret('no stored secret');

/** Compares a presented secret with a stored hash in constant time, doing the same work whether or
 * not there is a stored hash. */
export function secretMatches(presented: string, storedHash: string | undefined): boolean {
  const actual = Buffer.from(hashSecret(presented));
  const usable = storedHash !== undefined && Buffer.byteLength(storedHash) === actual.length;
  const equal = timingSafeEqual(actual, Buffer.from(usable ? storedHash : NO_HASH));
  return equal && usable;
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new Ed25519 key pair (docs/api.md section 12): the private key as `whsk_` + base64 of its
 * PKCS#8 DER form (to be sealed at once), the public key as answers show it, `whpk_` + base64 of its
 * 32 raw bytes (the last 32 bytes of its SPKI DER form). */
export function newSigningKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey: `whsk_${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    publicKey: `whpk_${spki.subarray(spki.length - 32).toString('base64')}`,
  };
}
