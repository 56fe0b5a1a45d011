import { DuplicateEventIdError, EventStoreUnavailableError } from '../event-store.errors';
import { checkExpectedRevision, checkRequiredStream } from '../expected-revision';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadAllOptions,
  RecordedEvent,
  StreamRange,
  SubscribeOptions,
  SubscriptionMessage,
} from '../event-store.port';
import { asFiltered, matchesFilter } from '../event-filter';
import { CHAIN_KEY, chainHashOfJson, storedChain, withoutChain } from '../event-chain';

/** The log itself, which several clients (MemoryEventStore) of one process may share. */
export class MemoryLog {
  /** The global log; index + 1 is the position. A deleted event leaves a hole, so that positions stay. */
  readonly events: Array<RecordedEvent | undefined> = [];
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly byId = new Map<string, RecordedEvent>();
  private waiters: Array<() => void> = [];

  /** Resolves at the next append, or when `signal` aborts. */
  nextAppend(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  appended(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Data as a store keeps it: a copy, through JSON like the durable adapters, so that no caller
 * shares an object with the log and what JSON cannot carry fails here as it would there. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The event-store port in memory: nothing survives the process. For fast in-process tests of
 * handlers and projections, between the decider specs and the e2e tests that start the apps; it
 * passes the adapters' contract suite except durability, which it does not claim.
 */
export class MemoryEventStore implements EventStore {
  private closed = false;

  constructor(readonly log: MemoryLog = new MemoryLog()) {}

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    this.ensureOpen();
    if (events.length === 0) throw new Error('append needs at least one event');
    if (options?.requires)
      checkRequiredStream(options.requires, this.log.streams.get(options.requires.streamName)?.at(-1)?.type);
    const stream = this.log.streams.get(streamName) ?? [];
    if (this.log.byId.has(events[0].id)) return this.idempotent(streamName, stream, events);
    checkExpectedRevision(streamName, expected, stream.length === 0 ? null : BigInt(stream.length - 1));
    const ids = new Set<string>();
    for (const { id } of events) {
      if (this.log.byId.has(id) || ids.has(id)) throw new DuplicateEventIdError(id);
      ids.add(id);
    }
    const recordedAt = new Date().toISOString();
    let chain = storedChain(stream.at(-1) ?? { metadata: {} }) ?? '';
    // All made before any is stored, so that an event JSON cannot carry fails the append whole.
    const recorded = events.map((event, i): RecordedEvent => {
      const data = JSON.stringify(event.data);
      const metadata = withoutChain(event.metadata);
      chain = chainHashOfJson(chain, streamName, event.id, event.type, data ?? 'null', JSON.stringify(metadata));
      return {
        id: event.id,
        streamName,
        revision: BigInt(stream.length + i),
        position: BigInt(this.log.events.length + 1 + i),
        type: event.type,
        data: JSON.parse(data as string),
        metadata: stored({ ...metadata, [CHAIN_KEY]: chain }),
        recordedAt,
      };
    });
    for (const event of recorded) {
      stream.push(event);
      this.log.events.push(event);
      this.log.byId.set(event.id, event);
    }
    this.log.streams.set(streamName, stream);
    this.log.appended();
    return { nextExpectedRevision: BigInt(stream.length - 1), position: BigInt(this.log.events.length) };
  }

  async readStream(streamName: string, range: StreamRange = {}): Promise<RecordedEvent[]> {
    this.ensureOpen();
    const { fromRevision = 0n, maxCount = Number.POSITIVE_INFINITY } = range;
    const events = (this.log.streams.get(streamName) ?? []).filter((event) => event.revision >= fromRevision);
    return events.slice(0, maxCount).map(copy);
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    this.ensureOpen();
    const last = this.log.streams.get(streamName)?.at(-1);
    return last && copy(last);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.ensureOpen();
    const found: RecordedEvent[] = [];
    const max = options.maxCount ?? Infinity;
    for (let i = Number(options.after ?? 0n); i < this.log.events.length && found.length < max; i++) {
      const event = this.log.events[i];
      if (event && matchesFilter(event, options.filter)) found.push(asFiltered(copy(event), options.filter));
    }
    return found;
  }

  async headPosition(): Promise<bigint> {
    this.ensureOpen();
    return BigInt(this.log.events.length);
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<SubscriptionMessage> {
    let next = Number(options.after ?? 0n);
    let caughtUpAt = -1;
    while (!options.signal?.aborted && !this.closed) {
      const head = this.log.events.length;
      for (; next < head; next++) {
        const event = this.log.events[next];
        if (event && matchesFilter(event, options.filter))
          yield { kind: 'event', event: asFiltered(copy(event), options.filter) };
        if (options.signal?.aborted) return;
      }
      if (caughtUpAt !== head) {
        caughtUpAt = head;
        yield { kind: 'caughtUp', position: BigInt(head) };
      }
      if (this.log.events.length === head) await this.log.nextAppend(options.signal);
    }
  }

  /** Drops the stream: its events leave the log (holes keep the other positions). */
  async deleteStream(streamName: string): Promise<void> {
    this.ensureOpen();
    for (const event of this.log.streams.get(streamName) ?? []) {
      this.log.events[Number(event.position) - 1] = undefined;
      this.log.byId.delete(event.id);
    }
    this.log.streams.delete(streamName);
  }

  /** The names of the streams that start with `prefix` and hold events, in the byte order of their
   * UTF-8 names (as the embedded store lists them). */
  async *streamNames(prefix: string): AsyncIterable<string> {
    this.ensureOpen();
    const names = [...this.log.streams.keys()].filter(
      (name) => name.startsWith(prefix) && (this.log.streams.get(name)?.length ?? 0) > 0,
    );
    yield* names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.log.appended();
  }

  private idempotent(
    streamName: string,
    stream: readonly RecordedEvent[],
    events: readonly EventToAppend[],
  ): AppendResult {
    let position = 0n;
    for (const { id } of events) {
      const found = this.log.byId.get(id);
      if (!found || found.streamName !== streamName) throw new DuplicateEventIdError(id);
      if (found.position > position) position = found.position;
    }
    return { nextExpectedRevision: BigInt(stream.length - 1), position };
  }

  private ensureOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('memory store is closed');
  }
}

const copy = (event: RecordedEvent): RecordedEvent => ({
  ...event,
  data: stored(event.data),
  metadata: stored(event.metadata),
});
