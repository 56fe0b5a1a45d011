import type { Ack, Message, SealedAck, SealedMessage } from '@gw/domain-inbox';
import type { NotificationBody } from '@gw/domain-notifications';
import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import type { SecretBox } from '../secret-box';
import { DataKeys, type DataKey, type DataKeysOptions, type SealedKind } from './data-keys';
import { utcDay } from './personal-data.events';
import { keyRefOfChecked, knownKeyRef, openFields, sealedClearBytes, sealedKeyRef, sealFields } from './sealed-value';

/** What an opened field is once its data key was erased (docs/api.md section 9). */
export const ERASED: unique symbol = Symbol('erased personal data');
/** The type of ERASED. */
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
export type OpenedMessage<E> = Omit<Message, 'body' | 'senderName' | 'from' | 'chatId'> &
  Record<'body' | 'senderName' | 'from' | 'chatId', string | E>;
/** An ack with its `chatId` opened: the clear value, or `E` where erased. */
export type OpenedAck<E> = Omit<Ack, 'chatId'> & { chatId: string | E };
/** A notification body with every personal field opened, `E` where erased. */
export type OpenedBody<E> =
  | { instanceId: string; sequence: number; label?: string; messages: OpenedMessage<E>[] }
  | { instanceId: string; sequence: number; label?: string; ack: OpenedAck<E>[] }
  | Extract<NotificationBody, { instance: unknown }>
  | Extract<NotificationBody, { state: unknown }>;

/**
 * The bytes a message's JSON takes in a notification body once opened, without opening it: its
 * fields in the clear plus its personal fields, whose JSON text the sealed value holds (sealed as an
 * array, opened as four members: 35 bytes more of names and commas). An erased field opens as
 * `null`, which may be 2 bytes longer than the value was: counted too, so this is never short.
 */
export function openedMessageBytes({ sealed, ...clear }: SealedMessage): number {
  return Buffer.byteLength(JSON.stringify(clear)) + sealedClearBytes(sealed) + 35 + 4 * 2;
}

/** The same for an ack: its one personal field, `chatId`, opens as one member (8 bytes more). */
export function openedAckBytes({ sealed, ...clear }: SealedAck): number {
  return Buffer.byteLength(JSON.stringify(clear)) + sealedClearBytes(sealed) + 8 + 2;
}

/** A message as stored, sealed with a key its writer holds (the bench's synthetic logs). */
export function sealMessageWith(key: DataKey, message: Message): SealedMessage {
  const { chatId, from, senderName, body, ...rest } = message;
  return { ...rest, sealed: sealFields(key, 'message', [chatId, from, senderName, body]) };
}

/** An ack as stored, sealed with a key its writer holds. */
export function sealAckWith(key: DataKey, ack: Ack): SealedAck {
  const { chatId, ...rest } = ack;
  return { ...rest, sealed: sealFields(key, 'ack', [chatId]) };
}

/**
 * The personal fields of messages (`body`, `senderName`, `from`, `chatId`) and acks (`chatId`),
 * stored as one sealed value per message or ack (SealedMessage, SealedAck; the format is in
 * sealed-value.ts) under the data key of their instance and UTC day, so that destroying that key
 * erases them for good while the events stay.
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
   * existing key, or that was sealed for the other kind.
   */
  async openSealed(instanceId: string, sealed: string, kind: SealedKind): Promise<string[] | Erased> {
    return openWith(await this.keysOf(instanceId, [{ sealed }]), sealed, kind) ?? ERASED;
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
      if (knownKeyRef(sealed, keys) !== undefined) continue;
      const ref = sealedKeyRef(sealed);
      if (ref === undefined) throw new PersonalDataUnreadable(unreadableForm(sealed));
      keys.set(ref, await this.openingKey(`${instanceId}.${ref}`));
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
      throw new PersonalDataUnreadable(
        'a data key does not open under SECRETS_KEY (another SECRETS_KEY, or altered in the store?)',
      );
    }
  }
}

/** Why a value is not in the sealed form: the development builds' `pd1`, or not sealed at all. */
function unreadableForm(sealed: unknown): string {
  return typeof sealed === 'string' && sealed.startsWith('pd1.')
    ? 'a personal field sealed in the pd1 format of development builds, which this version does not read'
    : 'a personal field is not in the sealed form';
}

/** Data keys by key reference (`{day}.{key}`), null where erased, for one instance's values. */
type Keys = Map<string, DataKey | null>;

/** The opened fields, or null where the key was erased (keysOf found every value's key). */
function openWith(keys: Keys, sealed: string, kind: SealedKind): string[] | null {
  const key = keys.get(keyRefOfChecked(sealed));
  if (!key) return null;
  const fields = openFields(key, kind, sealed);
  // Nothing of a value that does not authenticate is used.
  if (!fields) throw new PersonalDataUnreadable();
  return fields;
}

/** The receiver's Message, its fields in their usual order. */
function openMessageWith<E>(keys: Keys, m: SealedMessage, erased: E): OpenedMessage<E> {
  const clear = openWith(keys, m.sealed, 'message');
  if (!clear)
    return {
      id: m.id,
      chatId: erased,
      from: erased,
      fromMe: m.fromMe,
      senderName: erased,
      type: m.type,
      body: erased,
      time: m.time,
    };
  return {
    id: m.id,
    chatId: clear[0],
    from: clear[1],
    fromMe: m.fromMe,
    senderName: clear[2],
    type: m.type,
    body: clear[3],
    time: m.time,
  };
}

function openAckWith<E>(keys: Keys, a: SealedAck, erased: E): OpenedAck<E> {
  const clear = openWith(keys, a.sealed, 'ack');
  return { id: a.id, chatId: clear ? clear[0] : erased, status: a.status, time: a.time };
}
