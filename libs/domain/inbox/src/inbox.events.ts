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

export const ACK_STATUSES = ['failed', 'pending', 'sent', 'delivered', 'read', 'played'] as const;
export type AckStatus = (typeof ACK_STATUSES)[number];

export interface Ack {
  id: string;
  chatId: string;
  status: AckStatus;
  /** Unix seconds. */
  time: number;
}

export type MessageReceived = {
  type: 'MessageReceived';
  data: { instanceId: string; message: Message; receivedAt: string };
};

export type AckReceived = {
  type: 'AckReceived';
  data: { instanceId: string; ack: Ack; receivedAt: string };
};

export type InboxEvent = MessageReceived | AckReceived;

export const INBOX_STREAM_PREFIX = 'inbox-';

export function inboxStreamName(instanceId: string): string {
  return `${INBOX_STREAM_PREFIX}${instanceId}`;
}

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
