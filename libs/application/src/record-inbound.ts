import { type Ack, type InboxCommand, inboxStreamName, type Message } from '@gw/domain-inbox';
import { instanceStreamName } from '@gw/domain-instances';
import type { AppendResult, EventStore } from '@gw/event-store';
import type { PersonalData } from './personal-data';
import { inboxAggregate } from './streams';

/** The instance named by an inbound event does not exist. */
export class UnknownInstance extends Error {
  constructor(readonly instanceId: string) {
    super(`no instance ${instanceId}`);
    this.name = 'UnknownInstance';
  }
}

async function record(store: EventStore, instanceId: string, seal: () => Promise<InboxCommand>): Promise<AppendResult> {
  const { written } = await inboxAggregate.handle(
    store,
    instanceId,
    async () => {
      // Whether the instance exists (and was not deleted, which is always its last event) is all that
      // is asked here: one row, not its whole history.
      const last = await store.readLastEvent(instanceStreamName(instanceId));
      if (last === undefined || last.type === 'InstanceDeleted') throw new UnknownInstance(instanceId);
      // Sealed only now, so that no data key is made for an unknown instance. The sealed value differs
      // on every try, but the event's id derives from the message id alone: a retry stays a no-op.
      return seal();
    },
    { appendOnly: true },
  );
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
