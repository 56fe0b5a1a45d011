import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  START,
  StreamNotFoundError,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { retryDelayMs } from '@gw/process';
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
import { UNREADABLE_KEY } from '../event-chain';
import { asFiltered, matchesFilter } from '../event-filter';
import { checkRequiredStream } from '../expected-revision';
import { translateEsdbError } from './esdb-errors';
import { appendChained } from './esdb-append';
import { subscriptionMessages } from './esdb-subscription';

/** Where the EventStoreDB server is, and how the adapter reports and paces its resubscriptions. */
export interface EsdbEventStoreOptions {
  connectionString: string;
  /** Told about subscription drops and resubscriptions. */
  onWarning?: (message: string, fields: Record<string, unknown>) => void;
  /** Longest pause between resubscription attempts after a drop. */
  maxResubscribeDelayMs?: number;
}

const READ_PAGE = 500;
const HEAD_PAGE = 32;

/**
 * The EventStoreDB adapter: the production store and the way past one machine. Global positions are
 * the commit positions of `$all`; system events (`$`-types) are never surfaced. Subscriptions use a
 * server-side filter that drops system events and report its checkpoints; the port's own filter is
 * applied here, with progress through skipped events reported as checkpoints, so a consumer sees
 * every position up to the head.
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(private readonly options: EsdbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.connectionString);
  }

  /** Chained appends: see esdb-append.ts (one backwards read, then the append at its revision). */
  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    // No transaction spans two streams here: the required stream is read just before the append,
    // so a change to it in between is not seen (the embedded store checks it in the append's own).
    if (options?.requires)
      checkRequiredStream(options.requires, (await this.readLastEvent(options.requires.streamName))?.type);
    return appendChained(this.client, streamName, events, expected);
  }

  async readStream(streamName: string, range: StreamRange = {}): Promise<RecordedEvent[]> {
    const { fromRevision, maxCount } = range;
    return this.collectStream(streamName, {
      direction: FORWARDS,
      fromRevision: fromRevision ?? START,
      ...(maxCount === undefined ? {} : { maxCount }),
    });
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.collectStream(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
    return last;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
    const found: RecordedEvent[] = [];
    let after = options.after;
    // $all also holds system events and events the filter skips, so pages are read until enough match.
    for (;;) {
      const page = await this.readAllPage(after, READ_PAGE);
      for (const event of page.events) {
        if (matchesFilter(event, options.filter)) found.push(asFiltered(event, options.filter));
        if (found.length >= wanted) return found;
      }
      if (page.exhausted) return found;
      after = page.lastPosition;
    }
  }

  async headPosition(): Promise<bigint> {
    // The tail of $all may hold system events (statistics, say), which the port never surfaces: a
    // short page is read to its end (not abandoned midway, which leaves the call open) and the
    // newest non-system event wins.
    try {
      let head: bigint | undefined;
      for await (const resolved of this.client.readAll({
        direction: BACKWARDS,
        fromPosition: END,
        maxCount: HEAD_PAGE,
      })) {
        const event = toRecorded(resolved);
        if (event && head === undefined) head = event.position;
      }
      return head ?? 0n;
    } catch (error) {
      throw translateEsdbError(error);
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<SubscriptionMessage> {
    return this.resubscribing(options);
  }

  /**
   * EventStoreDB's soft delete: the stream reads as missing at once and may be recreated; its events
   * stay in `$all` (this adapter filters nothing there) until a scavenge removes them for good.
   */
  async deleteStream(streamName: string): Promise<void> {
    try {
      await this.client.deleteStream(streamName, { expectedRevision: ANY });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw translateEsdbError(error, streamName);
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  /**
   * Follows `$all` from a position, resubscribing with a growing pause after a drop and resuming
   * after the last position it handed out, so that a consumer sees neither a gap nor a repeat.
   */
  private async *resubscribing(options: SubscribeOptions): AsyncIterable<SubscriptionMessage> {
    let after = options.after;
    for (let failures = 0; !options.signal?.aborted;) {
      try {
        const from = after;
        const subscribe = (checkpointReached: (position: bigint) => void) =>
          this.client.subscribeToAll({
            fromPosition: from === undefined || from === 0n ? START : { commit: from, prepare: from },
            filter: excludeSystemEvents({
              checkpointInterval: 1,
              checkpointReached: (_s, position) => checkpointReached(position.commit),
            }),
          });
        for await (const message of subscriptionMessages(subscribe, { ...options, after }, toRecorded)) {
          failures = 0;
          if (message.kind === 'event') after = message.event.position;
          else if (after === undefined || message.position > after) after = message.position;
          yield message;
        }
        return;
      } catch (error) {
        if (options.signal?.aborted) return;
        failures += 1;
        const delay = retryDelayMs(failures, this.options.maxResubscribeDelayMs);
        this.options.onWarning?.('EventStoreDB subscription dropped; resubscribing', {
          error: translateEsdbError(error),
          delayMs: delay,
        });
        await sleep(delay, undefined, { signal: options.signal }).catch(() => undefined);
      }
    }
  }

  private async readAllPage(after: bigint | undefined, maxCount: number) {
    const events: RecordedEvent[] = [];
    let lastPosition = after ?? 0n;
    let read = 0;
    try {
      const fromPosition = after === undefined ? START : { commit: after, prepare: after };
      for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition, maxCount })) {
        read += 1;
        const position = resolved.event?.position?.commit ?? resolved.commitPosition;
        if (position !== undefined && position > lastPosition) lastPosition = position;
        const event = toRecorded(resolved);
        // Reading from a position includes the event at it; the port's `after` does not.
        if (event && (after === undefined || event.position > after)) events.push(event);
      }
    } catch (error) {
      throw translateEsdbError(error);
    }
    return { events, lastPosition, exhausted: read < maxCount };
  }

  private async collectStream(
    streamName: string,
    options: {
      direction: typeof FORWARDS | typeof BACKWARDS;
      fromRevision: typeof START | typeof END | bigint;
      maxCount?: number;
    },
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, options)) {
        const event = toRecorded(resolved);
        if (event) events.push(event);
      }
      return events;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw translateEsdbError(error, streamName);
    }
  }
}

/** The port's view of a resolved event; undefined for system events and links. */
function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
  return {
    id: event.id,
    streamName: event.streamId,
    revision: event.revision,
    position: event.position?.commit ?? 0n,
    type: event.type,
    data: event.data,
    // The client hands back metadata it cannot parse as raw bytes: marked, as the embedded store
    // marks a damaged row (event-chain.ts). Data it cannot parse comes back as the raw text, which
    // then fails its hash.
    metadata:
      event.metadata instanceof Uint8Array
        ? { [UNREADABLE_KEY]: ['metadata'] }
        : ((event.metadata ?? {}) as Record<string, unknown>),
    recordedAt: new Date(event.created).toISOString(),
  };
}
