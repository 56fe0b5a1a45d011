// The in-memory event log behind the test server: one global, append-only sequence ($all) plus an
// index per stream. Stream revisions start at 0; each event gets a log position (commit = prepare)
// that grows by a byte-like amount per record, across all streams, like EventStoreDB's.
//
// Soft delete, as EventStoreDB does it: deleting a stream writes a `$metadata` event to its
// metastream `$$name` with `$tb` (truncate before) = the largest possible revision; the stream then
// reads as not found, but its events stay in $all (until a scavenge, which this server never runs).
// Appending to it again with no_stream or any recreates it: revisions continue after the last one
// it had, the events before stay hidden, and the metastream gets `$tb` = the first new revision.

import { randomUUID } from 'node:crypto';

/** Where the first event lands in $all (EventStoreDB never has a user event at position 0). */
const FIRST_POSITION = 256;
/** Fixed per-record overhead added to the payload sizes when advancing the log position. */
const RECORD_OVERHEAD = 64;
/** `$tb` of a soft-deleted stream: EventStoreDB's EventNumber.DeletedStream (long.MaxValue). */
const DELETED_STREAM = '9223372036854775807';

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
  { kind: 'any' } | { kind: 'no_stream' } | { kind: 'stream_exists' } | { kind: 'exact'; revision: number };

/** -1 stands for "the stream does not exist". */
export type AppendResult =
  | { kind: 'success'; currentRevision: number; position: number | undefined }
  | { kind: 'wrong_expected_version'; currentRevision: number; expected: ExpectedRevision };

/** A stream's events by revision (index = revision), of which those from `from` on are visible. */
export interface StreamView {
  events: readonly RecordedEvent[];
  from: number;
}

export class InMemoryLog {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  /** Revisions below this are hidden (truncated); Infinity: the stream is soft-deleted. */
  private readonly truncateBefore = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private nextPosition = FIRST_POSITION;

  /** Every event in $all order. The array only grows; callers must not modify it. */
  get allEvents(): readonly RecordedEvent[] {
    return this.all;
  }

  /** The visible events of one stream in revision order, or undefined when the stream does not
   * exist (or is deleted). */
  stream(streamId: string): readonly RecordedEvent[] | undefined {
    const view = this.streamView(streamId);
    return view && view.events.slice(view.from);
  }

  /** A stream as reads see it; undefined when it does not exist or is deleted. */
  streamView(streamId: string): StreamView | undefined {
    const events = this.streams.get(streamId);
    const from = this.truncateBefore.get(streamId) ?? 0;
    return events && from < events.length ? { events, from } : undefined;
  }

  /** Soft-deletes a stream (see the top of this file). A missing stream is left alone (no position
   * in the result); else the result's position is that of the metastream's record. */
  delete(streamId: string, expected: ExpectedRevision): AppendResult {
    const current = this.currentRevision(streamId);
    const ok =
      expected.kind === 'any' ||
      (expected.kind === 'no_stream' && current < 0) ||
      (expected.kind === 'stream_exists' && current >= 0) ||
      (expected.kind === 'exact' && expected.revision === current);
    if (!ok) return { kind: 'wrong_expected_version', currentRevision: current, expected };
    if (current < 0) return { kind: 'success', currentRevision: current, position: undefined };
    this.truncateBefore.set(streamId, Infinity);
    return this.writeMetadata(streamId, DELETED_STREAM);
  }

  /**
   * Test-only tampering: replaces the stored bytes of one event (as someone editing the database
   * files would), without any trace in the log. Throws when there is no such event.
   */
  alterEvent(streamId: string, revision: number, change: { data?: Uint8Array; customMetadata?: Uint8Array }): void {
    const event = this.streams.get(streamId)?.[revision];
    if (!event) throw new Error(`no event ${streamId}@${revision}`);
    if (change.data) event.data = change.data;
    if (change.customMetadata) event.customMetadata = change.customMetadata;
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
    const current = this.currentRevision(streamId);
    const from = Math.min(this.truncateBefore.get(streamId) ?? 0, events.length);
    const wrong: AppendResult = { kind: 'wrong_expected_version', currentRevision: current, expected };

    switch (expected.kind) {
      case 'stream_exists':
        if (current < 0) return wrong;
        return this.appendAny(streamId, events, from, proposed) ?? wrong;
      case 'any':
        return this.appendAny(streamId, events, from, proposed) ?? wrong;
      case 'no_stream':
      case 'exact': {
        const expectedRevision = expected.kind === 'no_stream' ? -1 : expected.revision;
        if (expectedRevision === current) return this.write(streamId, events, proposed);
        // Idempotent retry: the same ids already follow the expected revision (for no_stream: start
        // the stream, or its recreation).
        const start = expected.kind === 'no_stream' ? from : expectedRevision + 1;
        if (expectedRevision < current && proposed.length > 0 && this.matchesAt(events, start, proposed)) {
          return this.alreadyWritten(events, start + proposed.length - 1);
        }
        return wrong;
      }
    }
  }

  /** The revision of the stream's last visible event; -1 when it does not exist or is deleted. */
  private currentRevision(streamId: string): number {
    return this.streamView(streamId) ? this.streams.get(streamId)!.length - 1 : -1;
  }

  /** Writes the `$metadata` record of a stream's metastream, with this `$tb`. */
  private writeMetadata(streamId: string, truncateBefore: string): AppendResult {
    const metastream = `$$${streamId}`;
    const data = Buffer.from(`{"$tb":${truncateBefore}}`, 'utf8');
    const record = {
      id: randomUUID(),
      type: '$metadata',
      contentType: 'application/json',
      data,
      customMetadata: new Uint8Array(),
    };
    return this.write(metastream, this.streams.get(metastream) ?? [], [record]);
  }

  /**
   * Expected revision "any" (or "stream_exists" on an existing stream): a batch whose ids are
   * already in the stream, in order, is an idempotent retry; a batch that only partly matches is
   * refused (EventStoreDB's "corrupted idempotency" answer is a wrong expected version too).
   */
  private appendAny(
    streamId: string,
    events: RecordedEvent[],
    from: number,
    proposed: readonly ProposedEvent[],
  ): AppendResult | undefined {
    if (proposed.length === 0) return this.write(streamId, events, proposed);
    const first = events.findIndex((event, revision) => revision >= from && event.id === proposed[0].id);
    if (first < 0) return this.write(streamId, events, proposed);
    return this.matchesAt(events, first, proposed)
      ? this.alreadyWritten(events, first + proposed.length - 1)
      : undefined;
  }

  private matchesAt(events: readonly RecordedEvent[], from: number, proposed: readonly ProposedEvent[]): boolean {
    if (from + proposed.length > events.length) return false;
    return proposed.every((event, i) => events[from + i].id === event.id);
  }

  private alreadyWritten(events: readonly RecordedEvent[], revision: number): AppendResult {
    return { kind: 'success', currentRevision: revision, position: events[revision].position };
  }

  private write(streamId: string, events: RecordedEvent[], proposed: readonly ProposedEvent[]): AppendResult {
    if (proposed.length === 0)
      return { kind: 'success', currentRevision: this.currentRevision(streamId), position: undefined };
    if (this.truncateBefore.get(streamId) === Infinity) {
      // Recreating a deleted stream: the events before stay hidden, revisions continue.
      this.truncateBefore.set(streamId, events.length);
      this.writeMetadata(streamId, String(events.length));
    }
    const created = BigInt(Date.now()) * 10_000n;
    for (const event of proposed) {
      const record: RecordedEvent = {
        ...event,
        streamId,
        revision: events.length,
        created,
        position: this.nextPosition,
      };
      this.nextPosition +=
        RECORD_OVERHEAD +
        Buffer.byteLength(streamId) +
        Buffer.byteLength(event.type) +
        event.data.length +
        event.customMetadata.length;
      events.push(record);
      this.all.push(record);
    }
    this.streams.set(streamId, events);
    const last = events[events.length - 1];
    for (const listener of [...this.listeners]) listener();
    return { kind: 'success', currentRevision: last.revision, position: last.position };
  }
}
