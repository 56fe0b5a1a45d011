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
} from '@gw/event-store';
import { EVENT_SCHEMAS, type EventSchema } from './event-schemas';

/** The metadata key holding the schema version an event's data was written in (absent: 1). */
export const SCHEMA_VERSION_KEY = 'schemaVersion';

/** The metadata key holding when the event was appended (ISO 8601). It is in the metadata, so the
 * hash chain covers it: the store's own record time (a column of the embedded store, set by the
 * server on EventStoreDB) is outside the chain, and an audit must not show a time that could be
 * edited unseen (docs/api.md 9.1, 9.2). */
export const WRITTEN_AT_KEY = 'writtenAt';

/** When an event was written, as its hash chain vouches for; the store's record time for events
 * written without it (by tools writing the stored form directly). */
export function writtenAt(event: RecordedEvent): string {
  const at = event.metadata[WRITTEN_AT_KEY];
  return typeof at === 'string' ? at : event.recordedAt;
}

/** An append named an event type the registry does not know: register it (event-schemas.ts) first. */
export class UnregisteredEventType extends Error {
  constructor(
    readonly eventType: string,
    readonly streamName: string,
  ) {
    super(
      `event type ${eventType} (appended to ${streamName}) has no registered schema: add it to libs/application/src/event-schema/event-schemas.ts`,
    );
    this.name = 'UnregisteredEventType';
  }
}

/** A stored event's schema version is one this code cannot read: newer than it knows (written by a
 * newer version of the gateway), or not a version at all. Reading it as the current shape would
 * misread it, so the read fails instead. */
export class UnreadableEventVersion extends Error {
  constructor(
    readonly eventType: string,
    readonly storedVersion: unknown,
    readonly knownVersion: number,
    readonly streamName: string,
    readonly revision?: bigint,
  ) {
    const where = revision === undefined ? `an event appended to ${streamName}` : `event ${streamName}@${revision}`;
    super(
      `${where} is ${eventType} version ${String(storedVersion)}, but this code knows ${eventType} up to version ${knownVersion}: run a version of the gateway that knows it`,
    );
    this.name = 'UnreadableEventVersion';
  }
}

/**
 * The event-store port with versioned events: every append is stamped with its type's current schema
 * version (an unregistered type is refused, so that no type escapes versioning), and every read path
 * returns events in their current shape, older versions upcast. An event of a type the registry does
 * not know (written by a newer version) is returned untouched: typed readers skip unknown types. An
 * event already in its current version is returned as it is, not copied, so a replay costs a map
 * lookup per event.
 */
export class VersionedEventStore implements EventStore {
  readonly nudge?: () => void;
  readonly completeDeletes?: () => Promise<void>;
  readonly streamNames?: (prefix: string) => AsyncIterable<string>;

  constructor(
    /** The store as it stores events; the hash chain is verified over this stored form. */
    readonly stored: EventStore,
    private readonly schemas: ReadonlyMap<string, EventSchema> = EVENT_SCHEMAS,
  ) {
    // Optional on the port: present only when the adapter has it.
    if (stored.nudge) this.nudge = () => stored.nudge?.();
    if (stored.completeDeletes) this.completeDeletes = () => stored.completeDeletes!();
    if (stored.streamNames) this.streamNames = (prefix) => stored.streamNames!(prefix);
  }

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const at = new Date().toISOString();
    return this.stored.append(
      streamName,
      events.map((event) => this.stamped(streamName, event, at)),
      expected,
      options,
    );
  }

  async readStream(streamName: string, range?: StreamRange): Promise<RecordedEvent[]> {
    return this.currentAll(await this.stored.readStream(streamName, range));
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    const event = await this.stored.readLastEvent(streamName);
    return event && this.current(event);
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.currentAll(await this.stored.readAll(options));
  }

  headPosition(): Promise<bigint> {
    return this.stored.headPosition();
  }

  subscribeToAll(options?: SubscribeOptions): AsyncIterable<SubscriptionMessage> {
    return {
      [Symbol.asyncIterator]: () => this.currentMessages(this.stored.subscribeToAll(options)[Symbol.asyncIterator]()),
    };
  }

  deleteStream(streamName: string): Promise<void> {
    return this.stored.deleteStream(streamName);
  }

  close(): Promise<void> {
    return this.stored.close();
  }

  /** The event in its current shape; throws UnreadableEventVersion rather than misread it. */
  current(event: RecordedEvent): RecordedEvent {
    const schema = this.schemas.get(event.type);
    if (schema === undefined) return event;
    const stored = event.metadata[SCHEMA_VERSION_KEY] ?? 1;
    // Nothing to upcast: the read asked for the event without its data, or its data is unreadable.
    if (stored === schema.version || event.data === undefined) return event;
    if (typeof stored !== 'number' || !Number.isInteger(stored) || stored < 1 || stored > schema.version) {
      throw new UnreadableEventVersion(event.type, stored, schema.version, event.streamName, event.revision);
    }
    let data: unknown = event.data;
    for (let version = stored; version < schema.version; version++) data = schema.upcasters[version](data);
    return { ...event, data, metadata: { ...event.metadata, [SCHEMA_VERSION_KEY]: schema.version } };
  }

  private currentAll(events: RecordedEvent[]): RecordedEvent[] {
    // Most events come back as they are: the store's array is copied only when one is upcast.
    let upcast: RecordedEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const event = this.current(events[i]);
      if (event !== events[i]) (upcast ??= events.slice())[i] = event;
    }
    return upcast ?? events;
  }

  private stamped(streamName: string, event: EventToAppend, at: string): EventToAppend {
    const schema = this.schemas.get(event.type);
    if (schema === undefined) throw new UnregisteredEventType(event.type, streamName);
    const given = event.metadata?.[SCHEMA_VERSION_KEY];
    // Code writes only the current shape; an explicit other version is a caller's mistake.
    if (given !== undefined && given !== schema.version)
      throw new UnreadableEventVersion(event.type, given, schema.version, streamName);
    return { ...event, metadata: { [WRITTEN_AT_KEY]: at, ...event.metadata, [SCHEMA_VERSION_KEY]: schema.version } };
  }

  /** The subscription's messages with events in their current shape. A hand-made iterator rather
   * than an async generator: one promise per message, and `return` reaches the store's iterator. */
  private currentMessages(inner: AsyncIterator<SubscriptionMessage>): AsyncIterator<SubscriptionMessage> {
    const map = (result: IteratorResult<SubscriptionMessage>): IteratorResult<SubscriptionMessage> => {
      if (result.done || result.value.kind !== 'event') return result;
      const event = this.current(result.value.event);
      return event === result.value.event ? result : { done: false, value: { kind: 'event', event } };
    };
    // An unreadable event ends the subscription: the store's iterator is closed, not left open.
    const closing = async (error: unknown): Promise<never> => {
      await inner.return?.();
      throw error;
    };
    return {
      next: () =>
        inner.next().then((result) => {
          try {
            return map(result);
          } catch (error) {
            return closing(error);
          }
        }),
      return: async (value?: unknown) => (inner.return ? inner.return(value) : { done: true, value }),
    };
  }
}

/** The store with versioned events (see VersionedEventStore). Wrapping twice is harmless. */
export function withEventSchemas(
  store: EventStore,
  schemas: ReadonlyMap<string, EventSchema> = EVENT_SCHEMAS,
): EventStore {
  return store instanceof VersionedEventStore ? store : new VersionedEventStore(store, schemas);
}

/** The store as it stores events: what the hash chain and an audit of the raw log read. */
export function storedForm(store: EventStore): EventStore {
  return store instanceof VersionedEventStore ? store.stored : store;
}
