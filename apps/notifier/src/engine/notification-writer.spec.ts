import type { NotificationCommand, NotificationCreated } from '@gw/domain-notifications';
import type { AppendOptions, AppendResult, EventToAppend, ExpectedRevision } from '@gw/event-store';
import { MemoryEventStore, MemoryLog } from '@gw/event-store/memory';
import { createLogger } from '@gw/logging';
import { NotificationWriter } from './notification-writer';
import { NotifierModel } from './notifier-model';

/** The writer in process, on the in-memory store: what two writers of one instance's stream (a
 * notifier and an operator's resend, or two notifier processes) do to each other. */

const I = 'i1';
const create = (id: string): NotificationCommand => ({
  type: 'CreateNotifications',
  data: {
    instanceId: I,
    notifications: [
      {
        webhookId: `msg_${id}`,
        content: { ack: [{ id, sealed: 'pd2.sealed-chat', status: 'read', time: 1767225600 }] },
        sourceEventIds: [`ev-${id}`],
      },
    ],
    now: '2026-01-01T00:00:00.000Z',
  },
});

function writerOn(log: MemoryLog) {
  const model = new NotifierModel(1, 0);
  return {
    model,
    writer: new NotificationWriter(
      new MemoryEventStore(log),
      model,
      createLogger('error'),
      new AbortController().signal,
    ),
  };
}

describe('the notification writer', () => {
  it('decides again on the stream as stored when another writer got there first', async () => {
    const log = new MemoryLog();
    const first = writerOn(log);
    const second = writerOn(log);
    await first.writer.run(I, create('a'));
    // The second writer's model has not seen 'a': its append at revision -1 conflicts, so it reads
    // the stream and numbers its notification after 'a'.
    const [created] = await second.writer.run(I, create('b'));
    expect(created.data).toMatchObject({ webhookId: 'msg_b', sequence: 2 });
    expect(Object.keys(second.model.notificationsOf(I).state.open).sort()).toEqual(['msg_a', 'msg_b']);
    const stored = await new MemoryEventStore(log).readStream(`notifications-${I}`);
    expect(stored.map((e) => (e.data as NotificationCreated['data']).sequence)).toEqual([1, 2]);
  });

  it('after a conflict, reads only what the other writer appended, not the whole stream', async () => {
    const log = new MemoryLog();
    const first = writerOn(log);
    const second = writerOn(log);
    for (const id of ['a', 'b', 'c']) await first.writer.run(I, create(id));
    await second.writer.run(I, create('d'));
    const reads = jest.spyOn(MemoryEventStore.prototype, 'readStream');
    try {
      // The first writer's model is at 'c' (revision 2): its append conflicts with 'd'.
      const [created] = await first.writer.run(I, create('e'));
      expect(created.data).toMatchObject({ webhookId: 'msg_e', sequence: 5 });
      // One read, from the event the model was at: no read of the stream from its start.
      expect(reads.mock.calls.map(([, range]) => range)).toEqual([{ fromRevision: 2n }]);
    } finally {
      reads.mockRestore();
    }
    expect(Object.keys(first.model.notificationsOf(I).state.open).sort()).toEqual([
      'msg_a',
      'msg_b',
      'msg_c',
      'msg_d',
      'msg_e',
    ]);
    expect(first.model.notificationsOf(I).revision).toBe(4n);
  });

  it('runs one instance’s commands one after the other, so that it never conflicts with itself', async () => {
    const log = new MemoryLog();
    const { writer, model } = writerOn(log);
    const store = new MemoryEventStore(log);
    const appends = jest.spyOn(MemoryEventStore.prototype, 'append');
    try {
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((id) => writer.run(I, create(id))));
      expect(results.map(([e]) => (e.data as NotificationCreated['data']).sequence)).toEqual([1, 2, 3, 4]);
      // One append each: none was refused and retried.
      expect(appends).toHaveBeenCalledTimes(4);
    } finally {
      appends.mockRestore();
    }
    expect(model.notificationsOf(I).revision).toBe(3n);
    expect(await store.readStream(`notifications-${I}`)).toHaveLength(4);
  });

  it('keeps what the log showed the model when its own append is answered after another writer appended', async () => {
    // The notifier's follower can read its own append, and another writer's right after it (the
    // API's redeliver, say), before the append's answer reaches the writer: the writer's view of
    // its append is then older than the model's and must not replace it.
    const log = new MemoryLog();
    const store = new MemoryEventStore(log);
    const stream = `notifications-${I}`;
    /** While set, appends are stored at once and answered once it settles. */
    const gate: { held?: Promise<void> } = {};
    class AnsweredLate extends MemoryEventStore {
      override async append(
        streamName: string,
        events: readonly EventToAppend[],
        expected: ExpectedRevision,
        options?: AppendOptions,
      ): Promise<AppendResult> {
        const result = await super.append(streamName, events, expected, options);
        await gate.held;
        return result;
      }
    }
    const model = new NotifierModel(1, 0);
    const notifier = new NotificationWriter(
      new AnsweredLate(log),
      model,
      createLogger('error'),
      new AbortController().signal,
    );
    await notifier.run(I, create('a'));
    let answer!: () => void;
    gate.held = new Promise<void>((resolve) => (answer = resolve));
    const own = notifier.run(I, create('b'));
    while ((await store.readStream(stream)).length < 2) await new Promise((resolve) => setImmediate(resolve));
    // Another writer appends after 'b' (its model is empty: it conflicts, reads, and numbers 'c' 3).
    await writerOn(log).writer.run(I, create('c'));
    // The follower folds both from the log before the notifier's append is answered.
    for (const event of await store.readStream(stream)) model.applyRecordedNotification(I, event);
    expect(model.notificationsOf(I).revision).toBe(2n);
    answer();
    await own;
    expect(model.notificationsOf(I).revision).toBe(2n);
    expect(Object.keys(model.notificationsOf(I).state.open).sort()).toEqual(['msg_a', 'msg_b', 'msg_c']);
  });
});
