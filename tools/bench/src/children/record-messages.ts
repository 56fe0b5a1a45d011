// Records incoming messages as the gateway would (MessageReceived in inbox-{id}, with the same
// idempotent event ids as recordMessage, and the personal fields sealed as it seals them), straight
// into the shared embedded store file. Every message of the run is sealed and chained, then all the
// appends are submitted in one turn, so that the store commits them as one group: the notifier sees
// the whole run at once, at a moment this child reports (`committedAt`), and its delivery rate is
// measured from there, apart from the recording's own pace (`startedAt` to `committedAt`).
import { nameBasedId, PersonalData, SecretBox, utcDay, withEventSchemas } from '@gw/application';
import { inboxIdentity, inboxStreamName, type MessageReceived } from '@gw/domain-inbox';
import type { EventToAppend } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { epochMs } from '@gw/testing/receiver';
import { childArgs, emit, required } from '../support/child';
import { benchMessage } from '../support/traffic';

const args = childArgs();
const instances = required(args, 'instances').split(',');
const perInstance = Number(required(args, 'per-instance'));
const runId = required(args, 'run-id');

async function main(): Promise<void> {
  let committedAt: number | undefined;
  // The last commit's moment: a data key made during the run (a UTC day ending) commits apart, first.
  const sqlite = new SqliteEventStore({
    file: required(args, 'file'),
    onGroupCommitted: () => (committedAt = epochMs()),
  });
  const store = withEventSchemas(sqlite);
  const personal = PersonalData.on(store, new SecretBox(Buffer.from(required(args, 'secrets-key'), 'hex')));
  // Each instance's data key of the day is made (or read) before the clock starts: a key is made once
  // per instance and day, by its first message, and is not what this scenario measures.
  const today = utcDay(new Date().toISOString());
  for (const instanceId of instances) await personal.keys.forSealing(instanceId, today);
  const startedAt = epochMs();
  committedAt = undefined;
  const appends: Array<[string, EventToAppend[]]> = [];
  for (const [index, instanceId] of instances.entries()) {
    const receivedAt = new Date().toISOString();
    const events: EventToAppend[] = [];
    for (let n = 1; n <= perInstance; n++) {
      const message = await personal.sealMessage(instanceId, benchMessage(runId, index, n), receivedAt);
      const event: MessageReceived = { type: 'MessageReceived', data: { instanceId, message, receivedAt } };
      events.push({ id: nameBasedId(inboxIdentity(event)), type: event.type, data: event.data });
    }
    appends.push([inboxStreamName(instanceId), events]);
  }
  // No await between the submissions: they share one group, one transaction.
  await Promise.all(appends.map(([stream, events]) => store.append(stream, events, 'any')));
  const endedAt = committedAt ?? epochMs();
  await store.close();
  emit({ startedAt, endedAt, events: instances.length * perInstance });
}

void main();
