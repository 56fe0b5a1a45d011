import { AEAD_OVERHEAD_BYTES, aeadOpen, aeadSeal } from './aead';
import type { DataKey, SealedKind } from './data-keys';

const FIELDS: Record<SealedKind, number> = { message: 4, ack: 1 };

/**
 * `pd2.{YYYYMMDD}.{8 hex}.{base64url(nonce | ciphertext | tag)}`: the JSON array of the fields,
 * sealed with XChaCha20-Poly1305 (aead.ts) under the data key the middle names. The instance is not
 * written (every value is read with its event's or body's instanceId); it is in the key id, and the
 * key id and the kind are the AAD, so a value moved to another instance, day, key or kind does not
 * open. (`pd1`, the development builds' format, had the key id alone as AAD; it was never deployed
 * and is refused by name.)
 */
const PREFIX = 'pd2.';
/** `{YYYYMMDD}.{8 hex}`: the part of a key id a sealed value carries. */
const KEY_REF_LENGTH = 17;
const SEALED_START = /^pd2\.\d{8}\.[0-9a-f]{8}\./;
const CIPHERTEXT_START = PREFIX.length + KEY_REF_LENGTH + 1;
const DOT = 46;

/** The key reference of a value in the sealed form (checked by `sealedKeyRef` or `knownKeyRef`). */
export function keyRefOfChecked(sealed: string): string {
  return sealed.slice(PREFIX.length, CIPHERTEXT_START - 1);
}

/** The sealed value of `clear` (a message's or an ack's fields, in a fixed order) under `key`. */
export function sealFields(key: DataKey, kind: SealedKind, clear: readonly string[]): string {
  // A missing field would seal as null and never open again: refused, and the message not recorded.
  if (!clear.every((value) => typeof value === 'string'))
    throw new TypeError(`a personal field of a ${kind} is not a string`);
  return `${PREFIX}${key.keyId.slice(key.keyId.length - KEY_REF_LENGTH)}.${aeadSeal(key.key, key.aad[kind], JSON.stringify(clear))}`;
}

/** The key reference (`{day}.{key}`) a sealed value names; undefined when it is not in the form. */
export function sealedKeyRef(sealed: unknown): string | undefined {
  return typeof sealed === 'string' && SEALED_START.test(sealed) ? keyRefOfChecked(sealed) : undefined;
}

/** The key reference of a value `sealedKeyRef` accepted before, or undefined: a slice and two
 * character checks, for the values after the first of a body (they mostly share one key). */
export function knownKeyRef(sealed: unknown, known: ReadonlyMap<string, unknown>): string | undefined {
  if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX) || sealed.charCodeAt(CIPHERTEXT_START - 1) !== DOT)
    return undefined;
  const ref = keyRefOfChecked(sealed);
  return known.has(ref) ? ref : undefined;
}

/** The fields sealed in `sealed` under `key` for `kind`; undefined when it does not authenticate
 * (altered, another key, another kind). */
export function openFields(key: DataKey, kind: SealedKind, sealed: string): string[] | undefined {
  const clear = aeadOpen(key.key, key.aad[kind], sealed, CIPHERTEXT_START);
  if (clear === undefined) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(clear);
  } catch {
    return undefined;
  }
  // Authentic values are always this shape; anything else is not used.
  return Array.isArray(fields) && fields.length === FIELDS[kind] && fields.every((v) => typeof v === 'string')
    ? (fields as string[])
    : undefined;
}

/** The UTF-8 bytes of the JSON array text sealed in `sealed`, known from its length alone (the AEAD
 * adds a fixed nonce and tag); for a value not in the form, its own length. */
export function sealedClearBytes(sealed: string): number {
  if (!SEALED_START.test(sealed)) return sealed.length;
  const encoded = sealed.length - CIPHERTEXT_START;
  return Math.max(0, Math.floor((encoded * 3) / 4) - AEAD_OVERHEAD_BYTES);
}
