/**
 * What `events list` prints of an event's data and metadata: everything but secrets, tokens, keys,
 * hashes and sealed values (docs/api.md 9), which are replaced by `[hidden]`. A value is hidden by its
 * field's name (`tokenHash`, `encryptedSecret`, `sealedKey`, `chain`, ...) or by its sealed form (a
 * personal field of a message or ack, `pd2.…`, or the development build's `pd1.…`), at any depth.
 */
const HIDDEN_NAME = /hash|secret|token|sealed|^chain$|^key$/i;
// Sealed forms carry at least an IV and a tag (28 bytes, 38 base64url characters).
const SEALED_VALUE = /^(v1|pd[12]\.\S+)\.[A-Za-z0-9_-]{38,}$/;

export const HIDDEN = '[hidden]';

export function hideSealed(value: unknown, name = ''): unknown {
  if (name !== '' && HIDDEN_NAME.test(name) && value !== null && value !== undefined) return HIDDEN;
  if (typeof value === 'string') return SEALED_VALUE.test(value) ? HIDDEN : value;
  if (Array.isArray(value)) return value.map((item) => hideSealed(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, hideSealed(inner, key)]),
    );
  }
  return value;
}
