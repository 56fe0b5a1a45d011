import { createHash } from 'node:crypto';
import { inboxIdentity, inboxStreamName, type Ack, type InboxEvent, type Message } from '@gw/domain-inbox';
import { instanceStreamName } from '@gw/domain-instances';
import type { AppendResult, EventStore } from '@gw/event-store';

/** The instance named by an inbound event does not exist. */
export class UnknownInstance extends Error {
  constructor(readonly instanceId: string) {
    super(`no instance ${instanceId}`);
    this.name = 'UnknownInstance';
  }
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

async function record(store: EventStore, event: InboxEvent): Promise<AppendResult> {
  const { instanceId } = event.data;
  // Whether the instance exists is all that is asked here: one row, not its whole history.
  if ((await store.readLastEvent(instanceStreamName(instanceId))) === undefined) throw new UnknownInstance(instanceId);
  return store.append(inboxStreamName(instanceId), [{ id: nameBasedId(inboxIdentity(event)), type: event.type, data: event.data }], 'any');
}

/**
 * Records a new incoming message of an instance, durably, once per message id: the gateway's
 * in-process entry point (the internal ingest host calls it too). Whether it is notified is the
 * notifier's decision, from the instance's state at this point of the log.
 */
export function recordMessage(store: EventStore, instanceId: string, message: Message, receivedAt: string): Promise<AppendResult> {
  return record(store, { type: 'MessageReceived', data: { instanceId, message, receivedAt } });
}

/** Records a delivery event (ack), once per message id and status. */
export function recordAck(store: EventStore, instanceId: string, ack: Ack, receivedAt: string): Promise<AppendResult> {
  return record(store, { type: 'AckReceived', data: { instanceId, ack, receivedAt } });
}
