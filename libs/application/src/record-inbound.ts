import { type Ack, type InboxCommand, inboxStreamName, type Message } from '@gw/domain-inbox';
import { RequiredStreamMissingError, type AppendResult, type EventStore } from '@gw/event-store';
import type { PersonalData } from './personal-data';
import { inboxAggregate, liveInstance } from './streams';

/** The instance named by an inbound event does not exist. */
export class UnknownInstance extends Error {
  constructor(readonly instanceId: string) {
    super(`no instance ${instanceId}`);
    this.name = 'UnknownInstance';
  }
}

async function record(store: EventStore, instanceId: string, seal: () => Promise<InboxCommand>): Promise<AppendResult> {
  let written: AppendResult | undefined;
  try {
    ({ written } = await inboxAggregate.handle(
      store,
      instanceId,
      // The sealed value differs on every try, but the event's id derives from the message id alone:
      // a retry stays a no-op. Sealing makes the instance's data key of the day on first use, and the
      // store makes it only for an instance that exists (DataKeys.forSealing).
      () => seal(),
      // Whether the instance exists and was not deleted is checked by the store with the append,
      // in its own transaction on the embedded store: no read before it, and no deletion in between.
      { appendOnly: true, requires: liveInstance(instanceId) },
    ));
  } catch (error) {
    if (error instanceof RequiredStreamMissingError) throw new UnknownInstance(instanceId);
    throw error;
  }
  // An append-only command that decided an event always writes it.
  if (!written) throw new Error(`recording on ${inboxStreamName(instanceId)} wrote nothing`);
  return written;
}

/**
 * Records a new incoming message of an instance, durably, once per message id, its personal fields
 * sealed (a SealedMessage, docs/api.md section 9): the gateway's in-process entry point (the internal ingest host
 * calls it too). Whether it is notified is the notifier's decision, from the instance's state at
 * this point of the log.
 */
export function recordMessage(
  store: EventStore,
  personalData: PersonalData,
  instanceId: string,
  message: Message,
  receivedAt: string,
): Promise<AppendResult> {
  return record(store, instanceId, async () => ({
    type: 'RecordMessage',
    data: { instanceId, message: await personalData.sealMessage(instanceId, message, receivedAt), receivedAt },
  }));
}

/** Records a delivery event (ack), once per message id and status, its `chatId` sealed (SealedAck). */
export function recordAck(
  store: EventStore,
  personalData: PersonalData,
  instanceId: string,
  ack: Ack,
  receivedAt: string,
): Promise<AppendResult> {
  return record(store, instanceId, async () => ({
    type: 'RecordAck',
    data: { instanceId, ack: await personalData.sealAck(instanceId, ack, receivedAt), receivedAt },
  }));
}
