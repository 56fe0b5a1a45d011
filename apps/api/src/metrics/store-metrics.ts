import {
  RequiredStreamMissingError,
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type RecordedEvent,
  type StreamRange,
  type SubscribeOptions,
  type SubscriptionMessage,
} from '@gw/event-store';
import { Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from './request-metrics';

/** Appends or events per group commit: 1 when writes are rare, hundreds under heavy load. */
const GROUP_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/**
 * The event store's metrics: append latency as the API sees it (on any store, through
 * `measure`), and the embedded store's group commits (through its `onGroupCommitted` observer, so
 * that the adapter never imports prom-client). Made in main.ts before the store is opened, and
 * registered by ApiMetrics.
 */
export class StoreMetrics {
  private readonly histograms: Array<Histogram<string>> = [];
  private readonly appendSeconds = this.histogram(
    'gw_event_store_append_duration_seconds',
    'Time from an append call of the API to its result (durable) or error, by outcome: ok, conflict (wrong expected revision), refused (a stream the append requires, such as its instance, is missing) or error.',
    LATENCY_BUCKETS,
    ['outcome'],
  );
  private readonly appendOk = this.appendSeconds.labels({ outcome: 'ok' });
  private readonly appendConflict = this.appendSeconds.labels({ outcome: 'conflict' });
  private readonly appendRefused = this.appendSeconds.labels({ outcome: 'refused' });
  private readonly appendError = this.appendSeconds.labels({ outcome: 'error' });
  private readonly groupAppends = this.histogram(
    'gw_event_store_group_commit_appends',
    'Appends committed together in one transaction (one fsync) by the embedded store; empty on EventStoreDB.',
    GROUP_SIZE_BUCKETS,
  );
  private readonly groupEvents = this.histogram(
    'gw_event_store_group_commit_events',
    'Events committed together in one transaction (one fsync) by the embedded store; empty on EventStoreDB.',
    GROUP_SIZE_BUCKETS,
  );
  private readonly groupSeconds = this.histogram(
    'gw_event_store_group_commit_duration_seconds',
    "Time one group commit of the embedded store took: the transaction, its fsync and any wait for another process's write lock.",
    LATENCY_BUCKETS,
  );

  /** The embedded store's observer (SqliteEventStoreOptions.onGroupCommitted). */
  readonly groupCommitted = (appends: number, events: number, seconds: number): void => {
    this.groupAppends.observe(appends);
    this.groupEvents.observe(events);
    this.groupSeconds.observe(seconds);
  };

  /** The store, with each append timed. */
  measure(store: EventStore): EventStore {
    return new MeasuredEventStore(store, this);
  }

  /** Puts these metrics in `registry`; the registry serves them at /metrics. */
  registerIn(registry: Registry): void {
    // Every outcome shows from the start, at 0, rather than appearing with its first append.
    for (const outcome of ['ok', 'conflict', 'refused', 'error']) this.appendSeconds.zero({ outcome });
    for (const histogram of this.histograms) registry.registerMetric(histogram);
  }

  /** @internal MeasuredEventStore's report of one append. */
  appended(startedMs: number, error?: unknown): void {
    const seconds = (performance.now() - startedMs) / 1000;
    if (error === undefined) this.appendOk.observe(seconds);
    else if (error instanceof WrongExpectedRevisionError) this.appendConflict.observe(seconds);
    else if (error instanceof RequiredStreamMissingError) this.appendRefused.observe(seconds);
    else this.appendError.observe(seconds);
  }

  private histogram(name: string, help: string, buckets: number[], labelNames: string[] = []): Histogram<string> {
    // Registered in no registry yet: ApiMetrics's, once Nest has made it.
    const histogram = new Histogram({ name, help, buckets, labelNames, registers: [] });
    this.histograms.push(histogram);
    return histogram;
  }
}

/** A decorator of the event-store port that times appends; everything else goes straight through. */
class MeasuredEventStore implements EventStore {
  readonly nudge?: () => void;
  readonly completeDeletes?: () => Promise<void>;
  readonly streamNames?: (prefix: string) => AsyncIterable<string>;

  constructor(
    private readonly inner: EventStore,
    private readonly metrics: StoreMetrics,
  ) {
    // Optional on the port: present only when the adapter has it (the projection runner asks).
    if (inner.nudge) this.nudge = () => inner.nudge?.();
    if (inner.completeDeletes) this.completeDeletes = () => inner.completeDeletes!();
    if (inner.streamNames) this.streamNames = (prefix) => inner.streamNames!(prefix);
  }

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const started = performance.now();
    try {
      const result = await this.inner.append(streamName, events, expected, options);
      this.metrics.appended(started);
      return result;
    } catch (error) {
      this.metrics.appended(started, error ?? new Error('append failed'));
      throw error;
    }
  }

  readStream(streamName: string, range?: StreamRange): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamName, range);
  }

  readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    return this.inner.readLastEvent(streamName);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  subscribeToAll(options?: SubscribeOptions): AsyncIterable<SubscriptionMessage> {
    return this.inner.subscribeToAll(options);
  }

  deleteStream(streamName: string): Promise<void> {
    return this.inner.deleteStream(streamName);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
