// The in-memory event log behind the test server: one global, append-only sequence ($all) plus an
// index per stream. Stream revisions start at 0; each event gets a log position (commit = prepare)
// that grows by a byte-like amount per record, across all streams, like EventStoreDB's.

/** Where the first event lands in $all (EventStoreDB never has a user event at position 0). */
const FIRST_POSITION = 256;
/** Fixed per-record overhead added to the payload sizes when advancing the log position. */
const RECORD_OVERHEAD = 64;

export interface RecordedEvent {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
  /** .NET ticks (100 ns units) since the Unix epoch, as the client expects in metadata "created". */
  created: bigint;
  position: number;
}

export interface ProposedEvent {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
}

/** What the writer expects the stream to look like (EventStoreDB's expected revision). */
export type ExpectedRevision =
  | { kind: 'any' }
  | { kind: 'no_stream' }
  | { kind: 'stream_exists' }
  | { kind: 'exact'; revision: number };

/** -1 stands for "the stream does not exist". */
export type AppendResult =
  | { kind: 'success'; currentRevision: number; position: number | undefined }
  | { kind: 'wrong_expected_version'; currentRevision: number; expected: ExpectedRevision };

export class InMemoryLog {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly listeners = new Set<() => void>();
  private nextPosition = FIRST_POSITION;

  /** Every event in $all order. The array only grows; callers must not modify it. */
  get allEvents(): readonly RecordedEvent[] {
    return this.all;
  }

  /** The events of one stream in revision order, or undefined when the stream does not exist. */
  stream(streamId: string): readonly RecordedEvent[] | undefined {
    return this.streams.get(streamId);
  }

  /** Index in $all of the first event at or after `position`. */
  indexAtOrAfter(position: number): number {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.all[mid].position < position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Calls `listener` after every append that wrote events; returns the unsubscribe function. */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(streamId: string, expected: ExpectedRevision, proposed: readonly ProposedEvent[]): AppendResult {
    const events = this.streams.get(streamId) ?? [];
    const current = events.length - 1;
    const wrong: AppendResult = { kind: 'wrong_expected_version', currentRevision: current, expected };

    switch (expected.kind) {
      case 'stream_exists':
        if (current < 0) return wrong;
        return this.appendAny(streamId, events, proposed) ?? wrong;
      case 'any':
        return this.appendAny(streamId, events, proposed) ?? wrong;
      case 'no_stream':
      case 'exact': {
        const expectedRevision = expected.kind === 'no_stream' ? -1 : expected.revision;
        if (expectedRevision === current) return this.write(streamId, events, proposed);
        // Idempotent retry: the same ids already follow the expected revision.
        if (expectedRevision < current && proposed.length > 0 && this.matchesAt(events, expectedRevision + 1, proposed)) {
          return this.alreadyWritten(events, expectedRevision + proposed.length);
        }
        return wrong;
      }
    }
  }

  /**
   * Expected revision "any" (or "stream_exists" on an existing stream): a batch whose ids are
   * already in the stream, in order, is an idempotent retry; a batch that only partly matches is
   * refused (EventStoreDB's "corrupted idempotency" answer is a wrong expected version too).
   */
  private appendAny(streamId: string, events: RecordedEvent[], proposed: readonly ProposedEvent[]): AppendResult | undefined {
    if (proposed.length === 0) return this.write(streamId, events, proposed);
    const first = events.findIndex((event) => event.id === proposed[0].id);
    if (first < 0) return this.write(streamId, events, proposed);
    return this.matchesAt(events, first, proposed) ? this.alreadyWritten(events, first + proposed.length - 1) : undefined;
  }

  private matchesAt(events: readonly RecordedEvent[], from: number, proposed: readonly ProposedEvent[]): boolean {
    if (from + proposed.length > events.length) return false;
    return proposed.every((event, i) => events[from + i].id === event.id);
  }

  private alreadyWritten(events: readonly RecordedEvent[], revision: number): AppendResult {
    return { kind: 'success', currentRevision: revision, position: events[revision].position };
  }

  private write(streamId: string, events: RecordedEvent[], proposed: readonly ProposedEvent[]): AppendResult {
    if (proposed.length === 0) return { kind: 'success', currentRevision: events.length - 1, position: undefined };
    const created = BigInt(Date.now()) * 10_000n;
    for (const event of proposed) {
      const record: RecordedEvent = { ...event, streamId, revision: events.length, created, position: this.nextPosition };
      this.nextPosition +=
        RECORD_OVERHEAD + Buffer.byteLength(streamId) + Buffer.byteLength(event.type) + event.data.length + event.customMetadata.length;
      events.push(record);
      this.all.push(record);
    }
    this.streams.set(streamId, events);
    const last = events[events.length - 1];
    for (const listener of [...this.listeners]) listener();
    return { kind: 'success', currentRevision: last.revision, position: last.position };
  }
}
