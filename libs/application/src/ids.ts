import { randomBytes, randomUUID } from 'node:crypto';
import { sha256Hex } from './sha256';

/** A new instance id: 24 lowercase hex characters (96 random bits), safe in URLs and paths. */
export function newInstanceId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * A new event id: a version 7 UUID (RFC 9562), 48 bits of Unix milliseconds and then random bits.
 * Ids made one after the other sort together, so the embedded store's unique index on event ids
 * takes them on its last page instead of on a random page each (a page more per event for every
 * group commit to write into the log and for the checkpointer to copy).
 */
export function newEventId(): string {
  // randomUUID's version digit (at 14) becomes 7; the variant and 74 random bits stay.
  return `${millisPrefix(Date.now())}7${randomUUID().slice(15)}`;
}

/** The first two groups of a time-ordered UUID, `xxxxxxxx-xxxx-`: 48 bits of Unix milliseconds. */
function millisPrefix(millis: number): string {
  const hex = millis.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-`;
}

/**
 * A UUID derived from a name (SHA-256, version and variant bits set as for name-based UUIDs), so
 * that recording the same thing twice appends the same event id, which the store keeps once.
 */
export function nameBasedId(name: string): string {
  // The first 16 bytes of the hash, in hex: byte 6's high nibble (hex digit 12) becomes the version,
  // 5, and byte 8's two high bits (in hex digit 16) the variant.
  const hex = sha256Hex(name);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${withVariant(hex[16])}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A name-based id (as nameBasedId) that sorts by a moment: a version 8 UUID (RFC 9562's custom
 * layout) of `at`'s 48 bits of Unix milliseconds and then 74 bits of the name's SHA-256. The same name
 * at the same moment is the same id, and ids of moments one after the other sort together (see
 * newEventId). A moment that is not a time from 1970 on is left out: the id is then nameBasedId's.
 */
export function timeOrderedNameBasedId(at: string, name: string): string {
  const millis = Date.parse(at);
  if (!Number.isSafeInteger(millis) || millis < 0 || millis >= 2 ** 48) return nameBasedId(name);
  const hash = sha256Hex(name);
  return `${millisPrefix(millis)}8${hash.slice(0, 3)}-${withVariant(hash[3])}${hash.slice(4, 7)}-${hash.slice(7, 19)}`;
}

/** A hex digit with its two high bits set to RFC 9562's variant, 10. */
function withVariant(hexDigit: string): string {
  return ((parseInt(hexDigit, 16) & 0x3) | 0x8).toString(16);
}

/**
 * A webhook id (the Standard Webhooks `webhook-id`): `msg_` and 32 hex characters derived from
 * `name`, so that the same notification always gets the same id, whichever notifier makes it.
 */
export function notificationWebhookId(name: string): string {
  return `msg_${nameBasedId(name).replace(/-/g, '')}`;
}

/** The webhook id of a test notification (docs/api.md 8.6): `test_` and 32 random hex characters. */
export function testWebhookId(): string {
  return `test_${randomUUID().replace(/-/g, '')}`;
}
