// Records incoming messages as the gateway would (MessageReceived in inbox-{id}, with the same
// idempotent event ids as recordMessage, and the personal fields sealed as it seals them), straight
// into the shared embedded store file, several per append, so that recording is fast and the
// notifier is what is measured.
import { nameBasedId, PersonalData, SecretBox, utcDay, withEventSchemas } from '@gw/application';
import { inboxIdentity, inboxStreamName, type MessageReceived } from '@gw/domain-inbox';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { epochMs } from '@gw/testing/receiver';
import { childArgs, emit, required } from '../support/child';
import { benchMessage } from '../support/traffic';

const args = childArgs();
const instances = required(args, 'instances').split(',');
const perInstance = Number(required(args, 'per-instance'));
const batch = Number(args.get('batch') ?? '50');
const runId = required(args, 'run-id');

async function main(): Promise<void> {
  const store = withEventSchemas(new SqliteEventStore({ file: required(args, 'file') }));
  const personal = PersonalData.on(store, new SecretBox(Buffer.from(required(args, 'secrets-key'), 'hex')));
  // Each instance's data key of the day is made (or read) before the clock starts: a key is made once
  // per instance and day, by its first message, and is not what this scenario measures (the
  // notifier is); timed here, 50 instances' keys were 50 more fsyncs in a run of a few hundred ms.
  const today = utcDay(new Date().toISOString());
  for (const instanceId of instances) await personal.keys.forSealing(instanceId, today);
  const startedAt = epochMs();
  let events = 0;
  for (let first = 1; first <= perInstance; first += batch) {
    for (const [index, instanceId] of instances.entries()) {
      const receivedAt = new Date().toISOString();
      const batchEvents = [];
      for (let n = first; n < first + batch && n <= perInstance; n++) {
        const message = await personal.sealMessage(instanceId, benchMessage(runId, index, n), receivedAt);
        const event: MessageReceived = { type: 'MessageReceived', data: { instanceId, message, receivedAt } };
        batchEvents.push({ id: nameBasedId(inboxIdentity(event)), type: event.type, data: event.data });
      }
      await store.append(inboxStreamName(instanceId), batchEvents, 'any');
      events += batchEvents.length;
    }
  }
  const endedAt = epochMs();
  await store.close();
  emit({ startedAt, endedAt, events });
}

void main();
