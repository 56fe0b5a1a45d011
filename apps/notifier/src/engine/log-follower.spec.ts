import type { NotifierCheckpointed } from '@gw/domain-notifications';
import type { RecordedEvent, SubscribeOptions, SubscriptionMessage } from '@gw/event-store';
import { MemoryEventStore } from '@gw/event-store/memory';
import { createLogger } from '@gw/logging';
import { FakeClock } from '@gw/testing';
import { NotifierMetrics } from '../metrics/metrics';
import { checkpointStreamName, CheckpointRecorder } from './checkpoints';
import { LogFollower, type LogConsumer } from './log-follower';
import { NotifierModel } from './notifier-model';
import { Snapshotter } from './snapshotter';

/** The subscription and its checkpoints, on the in-memory store, with a consumer that records what
 * it is given and says which position its traffic waits at. */

class RecordingConsumer implements LogConsumer {
  readonly seen: string[] = [];
  replayFrom?: bigint;
  caughtUpAfter?: number;
  waiting?: bigint;
  beginReplay(checkpoint: bigint): void {
    this.replayFrom = checkpoint;
  }
  async apply(event: RecordedEvent): Promise<void> {
    this.seen.push(event.id);
  }
  async caughtUp(): Promise<void> {
    this.caughtUpAfter = this.seen.length;
  }
  waitingFrom(): bigint | undefined {
    return this.waiting;
  }
}

const logger = createLogger('error');
let store: MemoryEventStore;
let clock: FakeClock;
let running: Array<{ controller: AbortController; run: Promise<void> }>;

beforeEach(() => {
  store = new MemoryEventStore();
  clock = new FakeClock();
  running = [];
});
afterEach(async () => {
  for (const { controller, run } of running) {
    controller.abort();
    await run;
  }
});

function follower(consumer: LogConsumer, { on = store, snapshotEvery = 0, model = new NotifierModel(1, 0) } = {}) {
  const checkpoints = new CheckpointRecorder(on, 0, 1, clock);
  const snapshotter = new Snapshotter(on, model, new NotifierMetrics(), logger, {
    partition: 0,
    partitions: 1,
    every: snapshotEvery,
  });
  const follower = new LogFollower(on, consumer, checkpoints, snapshotter, logger, {
    streamNamePrefixes: ['instance-', 'inbox-'],
    checkpointIntervalMs: 60_000,
  });
  const controller = new AbortController();
  running.push({ controller, run: follower.run(controller.signal) });
  return { follower, checkpoints };
}

const append = (stream: string, id: string) => store.append(stream, [{ id, type: 'Something', data: {} }], 'any');
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!check()) throw new Error('timed out waiting');
};
const lastCheckpoint = async () =>
  (await store.readLastEvent(checkpointStreamName(0, 1)))?.data as NotifierCheckpointed['data'] | undefined;

describe('the log follower', () => {
  it('gives the consumer each event of its streams once, in order, says when it caught up, then follows live', async () => {
    await append('instance-a', 'e1');
    await append('other-x', 'skipped');
    await append('inbox-a', 'e2');
    const consumer = new RecordingConsumer();
    const { follower: f } = follower(consumer);
    await f.ready;
    expect(consumer).toMatchObject({ replayFrom: 0n, seen: ['e1', 'e2'], caughtUpAfter: 2 });
    expect(f.replayedAtStart).toBe(2);
    await append('inbox-a', 'e3');
    await until(() => consumer.seen.length === 3);
    expect(consumer.seen).toEqual(['e1', 'e2', 'e3']);
    expect(f.position).toBe(await store.headPosition());
  });

  it('records its checkpoint with the clock, never past traffic that still waits for its notification', async () => {
    for (const id of ['e1', 'e2', 'e3']) await append('inbox-a', id);
    const consumer = new RecordingConsumer();
    consumer.waiting = 2n;
    const { follower: f } = follower(consumer);
    await f.ready;
    expect(await lastCheckpoint()).toMatchObject({ position: '1', at: clock.iso() });
    consumer.waiting = undefined;
    clock.advance(1000);
    await f.checkpoint();
    // Past e3 (the log's own checkpoint events move it on too).
    const recorded = await lastCheckpoint();
    expect(recorded?.at).toBe(clock.iso());
    expect(BigInt(recorded?.position ?? 0)).toBeGreaterThanOrEqual(3n);
  });

  it('after a restart, replays with the recorded checkpoint, so that only traffic after it may need a notification', async () => {
    for (const id of ['e1', 'e2']) await append('inbox-a', id);
    await new CheckpointRecorder(store, 0, 1, clock).record(2n, undefined);
    await append('inbox-a', 'e3');
    const consumer = new RecordingConsumer();
    const { follower: f } = follower(consumer);
    await f.ready;
    expect(consumer.replayFrom).toBe(2n);
    // Without a snapshot the model is rebuilt from the whole log.
    expect(consumer.seen).toEqual(['e1', 'e2', 'e3']);
  });

  it('with a snapshot named by the checkpoint, restores the model and reads only what came after it', async () => {
    for (const id of ['e1', 'e2', 'e3', 'e4']) await append('inbox-a', id);
    const first = new RecordingConsumer();
    const { follower: f, checkpoints } = follower(first, { snapshotEvery: 2 });
    await f.ready;
    await until(() => checkpoints.last.snapshot !== undefined);
    await append('inbox-a', 'e5');
    const consumer = new RecordingConsumer();
    const model = new NotifierModel(1, 0);
    const { follower: again } = follower(consumer, { model });
    await again.ready;
    expect(consumer.seen).toEqual(['e5']);
    expect(consumer.replayFrom).toBe(4n);
    expect(again.replayedAtStart).toBe(1);
  });

  it('subscribes again where it stopped when the subscription fails', async () => {
    await append('inbox-a', 'e1');
    let failures = 0;
    const flaky = Object.create(store) as MemoryEventStore;
    flaky.subscribeToAll = (options?: SubscribeOptions): AsyncIterable<SubscriptionMessage> => {
      const inner = store.subscribeToAll(options);
      return (async function* () {
        for await (const message of inner) {
          yield message;
          if (message.kind === 'event' && message.event.id === 'e2' && failures++ === 0)
            throw new Error('connection reset');
        }
      })();
    };
    const consumer = new RecordingConsumer();
    const { follower: f } = follower(consumer, { on: flaky });
    await f.ready;
    await append('inbox-a', 'e2');
    await append('inbox-a', 'e3');
    await until(() => consumer.seen.length >= 3);
    expect(failures).toBe(1);
    expect(consumer.seen).toEqual(['e1', 'e2', 'e3']);
  });

  const checkpointsRecorded = async () => (await store.readStream(checkpointStreamName(0, 1))).length;
  /** Until the follower's subscription has reported the log's head as it is now. */
  const atHead = async (f: LogFollower) => {
    const head = await store.headPosition();
    await until(() => f.position === head);
    return head;
  };

  it('records no checkpoint on a quiet log: its own checkpoints moving the head are no news', async () => {
    await append('inbox-a', 'e1');
    const { follower: f } = follower(new RecordingConsumer());
    await f.ready;
    expect(await checkpointsRecorded()).toBe(1);
    for (let round = 0; round < 3; round++) {
      // The subscription has reported the head, past the checkpoint just recorded.
      await atHead(f);
      clock.advance(1000);
      await f.checkpoint();
    }
    expect(await checkpointsRecorded()).toBe(1);
    // An event for it is news again.
    await append('inbox-a', 'e2');
    await atHead(f);
    await f.checkpoint();
    expect(await checkpointsRecorded()).toBe(2);
  });

  it('records a span of events it skipped only once the span is long', async () => {
    await append('inbox-a', 'e1');
    const { follower: f } = follower(new RecordingConsumer());
    await f.ready;
    for (let i = 0; i < 9_990; i++) await append('other-x', `skipped-${i}`);
    await atHead(f);
    await f.checkpoint();
    expect(await checkpointsRecorded()).toBe(1);
    for (let i = 9_990; i < 10_000; i++) await append('other-x', `skipped-${i}`);
    const head = await atHead(f);
    await f.checkpoint();
    expect(await checkpointsRecorded()).toBe(2);
    expect((await lastCheckpoint())?.position).toBe(String(head));
  });

  it('records one checkpoint at a time; calls meanwhile share one more, made after it with what is known then', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = Object.create(store) as MemoryEventStore;
    slow.append = async (stream, events, expected, options) => {
      if (stream !== checkpointStreamName(0, 1)) return store.append(stream, events, expected, options);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        return await store.append(stream, events, expected, options);
      } finally {
        inFlight -= 1;
      }
    };
    const consumer = new RecordingConsumer();
    const { follower: f } = follower(consumer, { on: slow });
    await f.ready;
    const before = await checkpointsRecorded();
    const calls: Array<Promise<void>> = [];
    for (const id of ['e1', 'e2', 'e3', 'e4']) {
      await append('inbox-a', id);
      await until(() => consumer.seen.includes(id));
      calls.push(f.checkpoint());
    }
    await Promise.all(calls);
    expect(mostInFlight).toBe(1);
    // The first call's, then one for the three calls made while it was being recorded.
    expect((await checkpointsRecorded()) - before).toBe(2);
    const e4 = (await store.readStream('inbox-a')).at(-1)!;
    expect(BigInt((await lastCheckpoint())?.position ?? 0)).toBeGreaterThanOrEqual(e4.position);
  });
});
