import { WRITTEN_AT_KEY } from '@gw/application';
import { MemoryEventStore } from '@gw/event-store/memory';
import { instanceTimeline } from './timeline';
import { timelineEntry, type Openers } from './timeline-facts';

/** The timeline's order is the log's, not the clock's: events written within one millisecond, in
 * several streams, come out in the order they were appended (docs/api.md 9.1). */

const AT = '2026-11-23T06:00:01.120Z';
const open: Openers = {
  message: async (_id, data) => data,
  ack: async (_id, data) => data,
  email: async () => 'ann@example.com',
};

describe('audit timeline order', () => {
  it('follows log positions across streams for events of the same millisecond', async () => {
    const store = new MemoryEventStore();
    const meta = { [WRITTEN_AT_KEY]: AT };
    // Appended so that reading the streams one after another would give another order.
    await store.append(
      'instance-inst_a',
      [
        {
          id: 'e1',
          type: 'InstanceCreated',
          data: { instanceId: 'inst_a', packageId: 'trial', expiresAt: AT },
          metadata: meta,
        },
      ],
      'no_stream',
    );
    await store.append(
      'inbox-inst_a',
      [
        {
          id: 'e2',
          type: 'AckReceived',
          data: { instanceId: 'inst_a', id: 'm1', status: 'read', time: 1 },
          metadata: meta,
        },
      ],
      'no_stream',
    );
    await store.append(
      'instance-inst_a',
      [
        {
          id: 'e3',
          type: 'WebhookSet',
          data: { instanceId: 'inst_a', url: 'https://hooks.example.com/wa' },
          metadata: meta,
        },
      ],
      0n,
    );
    await store.append(
      'notifications-inst_a',
      [{ id: 'e4', type: 'NotificationCreated', data: { instanceId: 'inst_a', sequence: 1 }, metadata: meta }],
      'no_stream',
    );
    await store.append(
      'inbox-inst_a',
      [
        {
          id: 'e5',
          type: 'AckReceived',
          data: { instanceId: 'inst_a', id: 'm1', status: 'played', time: 2 },
          metadata: meta,
        },
      ],
      0n,
    );

    const entries = await instanceTimeline(store, 'inst_a', open);
    expect(entries.map((entry) => entry.at)).toEqual(Array(5).fill(AT));
    expect(entries.map((entry) => entry.type)).toEqual([
      'InstanceCreated',
      'AckReceived',
      'WebhookSet',
      'NotificationCreated',
      'AckReceived',
    ]);
    const positions = entries.map((entry) => BigInt(entry.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    // Each entry is the one timelineEntry makes of its event: only the order is this file's concern.
    expect(entries[0]).toEqual(await timelineEntry((await store.readStream('instance-inst_a'))[0], open));
  });
});
