/**
 * The event-store port. It speaks in stream names, expected revisions and global positions; adapters
 * translate their engine's types and errors into these.
 */

/** `no_stream`: the stream must not exist; `stream_exists`: it must; `any`: no check; a bigint: the
 * revision of the stream's last event (revisions count from 0). */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

/** An event as a writer hands it to `append`. */
export interface EventToAppend {
  /** Unique per event. Appending an id that the stream already holds is a no-op that succeeds (on
   * EventStoreDB, when it is among the stream's last 32 events: see esdb/esdb-append.ts). */
  id: string;
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

/** An event as the store holds it: where it is in its stream and in the global log, and when. */
export interface RecordedEvent {
  id: string;
  streamName: string;
  /** Position within its stream, from 0. */
  revision: bigint;
  /** Position in the global log; grows across all streams. */
  position: bigint;
  type: string;
  /** undefined for an event whose stored data is no longer valid JSON (see UNREADABLE_KEY), and for an
   * event of a type the read asked without data (EventFilter.typesWithoutData). */
  data: unknown;
  /** As the writer gave it, plus the hash chain the store adds (`chain`; see event-chain.ts); empty
   * for an event of a type the read asked without data. */
  metadata: Record<string, unknown>;
  recordedAt: string;
}

/**
 * Another stream an append depends on: it must exist, and its last event must not be of one of the
 * `endedBy` types (an instance's stream, say, ended by its deletion). Otherwise the append writes
 * nothing and fails with RequiredStreamMissingError. The embedded and in-memory stores check it in
 * the append's own transaction, so that nothing can end the stream in between; EventStoreDB, which
 * has no transaction across streams, reads the stream's last event just before it appends.
 */
export interface RequiredStream {
  streamName: string;
  endedBy: readonly string[];
}

/** What an append may ask beyond its expected revision. */
export interface AppendOptions {
  requires?: RequiredStream;
}

/** Where an append left the stream and the global log. */
export interface AppendResult {
  /** The stream's revision after the append: pass it as the next expected revision. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written (or already stored, for an idempotent retry). */
  position: bigint;
}

/** Restricts a read or subscription of the global log. An event matches when it matches every
 * criterion given. */
export interface EventFilter {
  streamNamePrefixes?: readonly string[];
  eventTypes?: readonly string[];
  /** Not a criterion: matching events of these types come back with `data` undefined and `metadata`
   * empty, for a reader that needs only their id, stream, revision, type, position and time; the
   * store then neither returns nor decodes what they carry (most of the log's bytes, for recorded
   * messages). */
  typesWithoutData?: readonly string[];
}

/** Where a read of the global log starts, how much it returns, and which events. */
export interface ReadAllOptions {
  /** Read events strictly after this position; omit to read from the start. */
  after?: bigint;
  maxCount?: number;
  filter?: EventFilter;
}

/** Where a subscription to the global log starts, and which events it delivers. */
export interface SubscribeOptions {
  /** Deliver events strictly after this position; omit to start from the beginning. */
  after?: bigint;
  filter?: EventFilter;
  /** Ends the subscription; the iterator then returns. */
  signal?: AbortSignal;
  /**
   * For a consumer that prefers fewer, larger batches (the API's read models): a polling adapter
   * looks for new events at most every `paceMs` while live, unless nudge() asks it to look at once.
   * Adapters that push events ignore it.
   */
  paceMs?: number;
}

/**
 * What a subscription yields. `caughtUp` is sent each time the subscription has delivered everything
 * up to `position` (the log's head when it was sent); `checkpoint` reports progress through events the
 * filter skipped, so that a consumer can persist how far it has looked.
 */
export type SubscriptionMessage =
  | { kind: 'event'; event: RecordedEvent }
  | { kind: 'checkpoint'; position: bigint }
  | { kind: 'caughtUp'; position: bigint };

/** Part of a stream: the events from `fromRevision` on (default: the first), at most `maxCount` of them
 * (default: all). */
export interface StreamRange {
  fromRevision?: bigint;
  maxCount?: number;
}

/** The event-store port: streams of events in one global log, whichever adapter stores them. */
export interface EventStore {
  /** Stores the events after the stream's last one, atomically, each with its hash chain (see
   * event-chain.ts) in `metadata.chain`. A deleted stream counts as missing. The stream that
   * `options.requires` names is checked first, so an append refused for it writes nothing even
   * when its events are stored already. */
  append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** The events of one stream in revision order, all of them or `range`; empty when the stream does
   * not exist. */
  readStream(streamName: string, range?: StreamRange): Promise<RecordedEvent[]>;
  /** The last event of a stream, or undefined when the stream does not exist. */
  readLastEvent(streamName: string): Promise<RecordedEvent | undefined>;
  /** Events of the global log in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the log, or 0n when it is empty. */
  headPosition(): Promise<bigint>;
  /** Catches up from `after`, then follows new events live, without gaps or duplicates. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<SubscriptionMessage>;
  /**
   * Removes the stream and every event in it for good (crypto-shredding deletes key streams so):
   * afterwards `readStream` returns [], `readLastEvent` undefined, and `readAll` and subscriptions
   * never return its events again, except on EventStoreDB, whose soft delete leaves them in `$all`
   * until a scavenge (this adapter filters nothing there). Appending to it again with `no_stream` or
   * `any` recreates it; the revisions of a recreated stream may not restart at 0 (EventStoreDB
   * continues them). Deleting a stream that does not exist is a no-op.
   */
  deleteStream(streamName: string): Promise<void>;
  /** A hint that another process may have appended, or that a consumer waits for what is there: a
   * polling adapter's subscriptions look at once, paced ones too. Optional. */
  nudge?(): void;
  /** Finishes removing from the store's files what `deleteStream` deleted, where an earlier call
   * could not (the embedded store truncates its write-ahead log, which a long read can hold up).
   * Erasures call it at their end, so that a repeated erasure completes one that failed there.
   * Optional: a store whose delete leaves nothing to finish does not have it. */
  completeDeletes?(): Promise<void>;
  /**
   * The names of the streams that start with `prefix` and hold events, in the byte order of their
   * UTF-8 names, for a reader that needs only which streams there are (the data keys' retention
   * sweep, one stream per instance and day): a store that keeps its streams in an index by name
   * walks that index, a step per stream whatever its events, instead of reading the log. A stream
   * made or removed while the listing runs may or may not be in it. Optional: EventStoreDB has no
   * such index to walk, and its callers read the log instead.
   */
  streamNames?(prefix: string): AsyncIterable<string>;
  close(): Promise<void>;
}
