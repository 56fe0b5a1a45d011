import { createHash, randomBytes, randomUUID } from 'node:crypto';

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
  const random = randomUUID();
  const millis = Date.now().toString(16).padStart(12, '0');
  // randomUUID's version digit (at 14) becomes 7; the variant and 74 random bits stay.
  return `${millis.slice(0, 8)}-${millis.slice(8)}-7${random.slice(15)}`;
}

/**
 * A UUID derived from a name (SHA-256, version and variant bits set as for name-based UUIDs), so
 * that recording the same thing twice appends the same event id, which the store keeps once.
 */
export function nameBasedId(name: string): string {
  const bytes = createHash('sha256').update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
