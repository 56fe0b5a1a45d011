import type { Ack, Message, SealedAck, SealedMessage } from '@gw/domain-inbox';
import type { NotificationBody } from '@gw/domain-notifications';
import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import type { SecretBox } from '../secret-box';
import { aeadOpen, aeadSeal } from './aead';
import { DataKeys, type DataKey, type DataKeysOptions } from './data-keys';
import { utcDay } from './personal-data.events';

const PREFIX = 'pd1.';

/** What an opened field is once its data key was erased (docs/api.md section 9). */
export const ERASED: unique symbol = Symbol('erased personal data');
export type Erased = typeof ERASED;

/** A sealed value that does not open under its own, existing key: altered, or not ours. Never
 * mistaken for an erasure, and carries nothing of the value. */
export class PersonalDataUnreadable extends Error {
  constructor(reason = 'a sealed personal field does not open under its data key (altered in the store?)') {
    super(reason);
    this.name = 'PersonalDataUnreadable';
  }
}

/** A message or ack with its personal fields opened: the clear value, or `E` where erased. */
export type OpenedMessage<E> = Omit<Message, 'body' | 'senderName' | 'from' | 'chatId'> & Record<'body' | 'senderName' | 'from' | 'chatId', string | E>;
export type OpenedAck<E> = Omit<Ack, 'chatId'> & { chatId: string | E };
export type OpenedBody<E> =
  | { instanceId: string; sequence: number; messages: OpenedMessage<E>[] }
  | { instanceId: string; sequence: number; ack: OpenedAck<E>[] }
  | Extract<NotificationBody, { instance: unknown }>;

/**
 * The clear values, sealed together as `pd1.{day}.{key}.{base64url(nonce|ciphertext|tag)}` under `key`
 * (XChaCha20-Poly1305 over their JSON array, aead.ts): one operation per message, not one per field.
 * The instance is not written (every value is read with its event's or body's instanceId); it is in
 * the key id, which is authenticated, so a value moved to another instance, day or key does not open.
 */
export function sealWith(key: DataKey, clear: readonly string[]): string {
  const sealed = aeadSeal(key.key, key.aad, Buffer.from(JSON.stringify(clear), 'utf8'));
  return `${PREFIX}${key.keyId.slice(key.keyId.length - KEY_REF_LENGTH)}.${sealed.toString('base64url')}`;
}

/** `{YYYYMMDD}.{8 hex}`: the part of a key id a sealed value carries. */
const KEY_REF_LENGTH = 17;

/** A message as stored, sealed with a key its writer holds (the bench's synthetic logs). */
export function sealMessageWith(key: DataKey, message: Message): SealedMessage {
  const { chatId, from, senderName, body, ...rest } = message;
  return { ...rest, sealed: sealWith(key, [chatId, from, senderName, body]) };
}

export function sealAckWith(key: DataKey, ack: Ack): SealedAck {
  const { chatId, ...rest } = ack;
  return { ...rest, sealed: sealWith(key, [chatId]) };
}

/** The key reference (`{day}.{key}`) of a sealed value, unchecked: a slice, as many times as there
 * are values; `keyIdOf` checks each distinct one once. */
const refOf = (sealed: string) => sealed.slice(PREFIX.length, PREFIX.length + KEY_REF_LENGTH);
const SEALED_START = /^pd1\.\d{8}\.[0-9a-f]{8}\./;

/** The key id a sealed value of `instanceId` names, or undefined when it is not in the sealed form. */
function keyIdOf(instanceId: string, sealed: string): string | undefined {
  return SEALED_START.test(sealed) ? `${instanceId}.${refOf(sealed)}` : undefined;
}

function open(key: DataKey, sealed: string, count: number): string[] {
  const plaintext = aeadOpen(key.key, key.aad, Buffer.from(sealed.slice(PREFIX.length + KEY_REF_LENGTH + 1), 'base64url'));
  // Nothing of a value that does not authenticate is used.
  if (plaintext === undefined) throw new PersonalDataUnreadable();
  let clear: unknown;
  try {
    clear = JSON.parse(plaintext.toString('utf8'));
  } catch {
    throw new PersonalDataUnreadable();
  }
  // Authentic, but a value of another kind (an ack's moved onto a message): not ours either.
  if (!Array.isArray(clear) || clear.length !== count || !clear.every((v) => typeof v === 'string')) throw new PersonalDataUnreadable();
  return clear as string[];
}

/**
 * The personal fields of messages (`body`, `senderName`, `from`, `chatId`) and acks (`chatId`),
 * stored as one sealed value per message or ack (SealedMessage, SealedAck) under the data key of their
 * instance and UTC day, so that destroying that key erases them for good while the events stay.
 */
export class PersonalData {
  constructor(readonly keys: DataKeys) {}

  static on(store: EventStore, box: SecretBox, options?: DataKeysOptions): PersonalData {
    return new PersonalData(new DataKeys(store, box, options));
  }

  /** The message as stored: its personal fields sealed under the key of `receivedAt`'s day. */
  async sealMessage(instanceId: string, message: Message, receivedAt: string): Promise<SealedMessage> {
    return sealMessageWith(await this.keys.forSealing(instanceId, utcDay(receivedAt)), message);
  }

  async sealAck(instanceId: string, ack: Ack, receivedAt: string): Promise<SealedAck> {
    return sealAckWith(await this.keys.forSealing(instanceId, utcDay(receivedAt)), ack);
  }

  /**
   * The clear values of one sealed value of `instanceId`, or ERASED once its key was destroyed.
   * Throws PersonalDataUnreadable for a value that is malformed or fails authentication under its
   * existing key.
   */
  async openSealed(instanceId: string, sealed: string, count: number): Promise<string[] | Erased> {
    const keyId = typeof sealed === 'string' ? keyIdOf(instanceId, sealed) : undefined;
    if (keyId === undefined) throw new PersonalDataUnreadable();
    const key = await this.openingKey(keyId);
    return key ? open(key, sealed, count) : ERASED;
  }

  async openMessage<E>(instanceId: string, message: SealedMessage, erased: E): Promise<OpenedMessage<E>> {
    return openMessageWith(await this.keysOf(instanceId, [message]), message, erased);
  }

  async openAck<E>(instanceId: string, ack: SealedAck, erased: E): Promise<OpenedAck<E>> {
    return openAckWith(await this.keysOf(instanceId, [ack]), ack, erased);
  }

  /** A notification body as the receiver gets it: every personal field opened, `erased` where erased. */
  async openBody<E>(body: NotificationBody, erased: E): Promise<OpenedBody<E>> {
    const { instanceId } = body;
    if ('messages' in body) {
      const keys = await this.keysOf(instanceId, body.messages);
      return { ...body, messages: body.messages.map((m) => openMessageWith(keys, m, erased)) };
    }
    if ('ack' in body) {
      const keys = await this.keysOf(instanceId, body.ack);
      return { ...body, ack: body.ack.map((a) => openAckWith(keys, a, erased)) };
    }
    return body;
  }

  /** The keys the sealed values need by key reference, each looked up once: a body's items share one
   * or two. Throws PersonalDataUnreadable for a value not in the sealed form. */
  private async keysOf(instanceId: string, items: ReadonlyArray<{ sealed: string }>): Promise<Keys> {
    const keys: Keys = new Map();
    for (const { sealed } of items) {
      if (typeof sealed !== 'string') throw new PersonalDataUnreadable();
      const ref = refOf(sealed);
      if (keys.has(ref) && sealed.startsWith(PREFIX) && sealed.charCodeAt(PREFIX.length + KEY_REF_LENGTH) === DOT) continue;
      const keyId = keyIdOf(instanceId, sealed);
      if (keyId === undefined) throw new PersonalDataUnreadable();
      keys.set(ref, await this.openingKey(keyId));
    }
    return keys;
  }

  /** The key to open with. A stored key that SECRETS_KEY does not open (another SECRETS_KEY, or
   * altered in the store) makes its values unreadable, like an altered value: an error, never an
   * erasure. An unavailable store stays what it is, to be waited out. */
  private async openingKey(keyId: string): Promise<DataKey | null> {
    try {
      return await this.keys.forOpening(keyId);
    } catch (error) {
      if (error instanceof EventStoreUnavailableError) throw error;
      throw new PersonalDataUnreadable('a data key does not open under SECRETS_KEY (another SECRETS_KEY, or altered in the store?)');
    }
  }
}

const DOT = 46;

/** Data keys by key reference (`{day}.{key}`), null where erased, for one instance's values. */
type Keys = Map<string, DataKey | null>;

function openWith(keys: Keys, sealed: string, count: number): string[] | null {
  const key = keys.get(refOf(sealed));
  return key ? open(key, sealed, count) : null;
}

/** The receiver's Message, its fields in their usual order. */
function openMessageWith<E>(keys: Keys, m: SealedMessage, erased: E): OpenedMessage<E> {
  const clear = openWith(keys, m.sealed, 4);
  const [chatId, from, senderName, body] = clear ?? [erased, erased, erased, erased];
  return { id: m.id, chatId, from, fromMe: m.fromMe, senderName, type: m.type, body, time: m.time };
}

function openAckWith<E>(keys: Keys, a: SealedAck, erased: E): OpenedAck<E> {
  const clear = openWith(keys, a.sealed, 1);
  return { id: a.id, chatId: clear ? clear[0] : erased, status: a.status, time: a.time };
}
