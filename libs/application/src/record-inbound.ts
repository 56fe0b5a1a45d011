import { inboxIdentity, inboxStreamName, type Ack, type InboxEvent, type Message } from '@gw/domain-inbox';
import { instanceStreamName } from '@gw/domain-instances';
import type { AppendResult, EventStore } from '@gw/event-store';
import { nameBasedId } from './ids';

/** The instance named by an inbound event does not exist. */
export class UnknownInstance extends Error {
  constructor(readonly instanceId: string) {
    super(`no instance ${instanceId}`);
    this.name = 'UnknownInstance';
  }
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
