/** What the gateway records about an instance's traffic, in the instance's inbox stream
 * (`inbox-{instanceId}`), apart from the instance's own stream. */

export interface Message {
  id: string;
  chatId: string;
  from: string;
  fromMe: boolean;
  senderName: string;
  type: string;
  body: string;
  /** Unix seconds. */
  time: number;
}

/** The delivery statuses an ack may report (docs/api.md section 6). */
export const ACK_STATUSES = ['failed', 'pending', 'sent', 'delivered', 'read', 'played'] as const;
/** One of ACK_STATUSES. */
export type AckStatus = (typeof ACK_STATUSES)[number];

/** A delivery event of a message, as the gateway reports it. */
export interface Ack {
  id: string;
  chatId: string;
  status: AckStatus;
  /** Unix seconds. */
  time: number;
}

/** The personal fields of a message: never stored in clear (docs/api.md 9.3). */
export type MessagePersonalField = 'chatId' | 'from' | 'senderName' | 'body';

/**
 * A message as stored and carried in notification bodies: its personal fields replaced by one
 * `sealed` value (encrypted together under the data key of its instance and day, by the application
 * layer; the domain never reads them). Opening it gives the receiver's Message back.
 */
export type SealedMessage = Omit<Message, MessagePersonalField> & { sealed: string };

/** An ack as stored: its `chatId` replaced by one `sealed` value, as for a message. */
export type SealedAck = Omit<Ack, 'chatId'> & { sealed: string };

/** A message was recorded; its personal fields are sealed. */
export type MessageReceived = {
  type: 'MessageReceived';
  data: { instanceId: string; message: SealedMessage; receivedAt: string };
};

/** An ack was recorded; its `chatId` is sealed. */
export type AckReceived = {
  type: 'AckReceived';
  data: { instanceId: string; ack: SealedAck; receivedAt: string };
};

/** The events of an inbox stream. */
export type InboxEvent = MessageReceived | AckReceived;

/** What every inbox stream's name starts with. */
export const INBOX_STREAM_PREFIX = 'inbox-';

/** `inbox-{instanceId}`: the stream of an instance's incoming messages and acks. */
export function inboxStreamName(instanceId: string): string {
  return `${INBOX_STREAM_PREFIX}${instanceId}`;
}

/** Whether a stored event is one of the inbox's. */
export function isInboxEvent(event: { type: string }): event is InboxEvent {
  return event.type === 'MessageReceived' || event.type === 'AckReceived';
}

/**
 * The identity that makes recording idempotent: the same message id, or the same message id and
 * status for an ack, is recorded once per instance.
 */
export function inboxIdentity(event: InboxEvent): string {
  return event.type === 'MessageReceived'
    ? `message|${event.data.instanceId}|${event.data.message.id}`
    : `ack|${event.data.instanceId}|${event.data.ack.id}|${event.data.ack.status}`;
}
