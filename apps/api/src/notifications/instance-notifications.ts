import { Inject, Injectable, Optional } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  isNotificationEvent,
  NotificationHistory,
  notificationsStreamName,
  type NotificationBody,
  type NotificationCreated,
  type NotificationEvent,
  type NotificationRecord,
} from '@gw/domain-notifications';
import type { EventStore } from '@gw/event-store';
import { EVENT_STORE } from '../shared/tokens';

/** Events read per query while catching up with a stream, at most; */
const READ_CHUNK = 5_000;
/** and at first, until a read shows how large this stream's events are: */
const FIRST_READ = 16;
/** each next read takes as many as fit in this many bytes, judged by the read before it. Bodies are
 * most of a notifications stream and each may take up to NOTIFICATION_BATCH_BYTES (more in logs
 * written before that bound), so a count alone bounds nothing: 5,000 bodies of 256 KB are over a
 * gigabyte read and decoded at once (docs/api.md section 11 bounds the API's memory while answering). */
const READ_BYTES = 2 * 1024 * 1024;
/** What an event takes besides the sealed personal fields of a body, about (ids, times, names). */
const EVENT_BYTES = 256;
/** Notifications held across instances (about 200 bytes each; an instance with none counts as one);
 * the instances used least recently are forgotten first. An instance with more than this alone is
 * folded per request and not held. */
const MAX_HELD_RECORDS = 200_000;
/** Overrides MAX_HELD_RECORDS (tests). */
const MAX_HELD_NOTIFICATIONS = Symbol('MAX_HELD_NOTIFICATIONS');
/** Events read per query when fetching the bodies of a page, which are mostly close together. */
const BODY_SPAN = 1_000;
/** Bodies read per query: a body may take up to NOTIFICATION_BATCH_BYTES (more in logs written
 * before that bound), and a page's reader stops at its byte bound, so bodies are read a few at a time. */
const BODIES_PER_READ = 8;

/** A notification and where its body is: the revision of its NotificationCreated. */
export interface NotificationRef {
  webhookId: string;
  sequence: number;
  createdRevision: number;
}

/** An instance's notifications at one moment. */
export interface InstanceNotificationsView {
  /** The highest sequence the instance has, 0 when none. */
  lastSequence: number;
  /** The notifications with `from` <= sequence <= `to`, at most `limit`, without reading a body. */
  refs(from: number, to: number, limit: number): NotificationRef[];
  /** The notifications with `from` <= sequence, at most `limit`, with their bodies, read a few at a
   * time as the caller takes them: a caller that stops early reads no more. */
  withBodies(from: number, limit: number): AsyncGenerator<NotificationRecord>;
}

/** An instance's history as held: each record keeps the revision of its NotificationCreated, where
 * its body is, not the body (bodies are most of the log). */
interface Held {
  history: NotificationHistory<bigint>;
  /** The next revision of the stream to fold. */
  next: bigint;
  /** The catch-up in progress: one at a time per instance. */
  reading?: Promise<void>;
}

/**
 * An instance's notifications read from its notifications stream (docs/api.md 8.7, 8.8). Not a read
 * model: bodies are most of the log, and projecting them would slow every rebuild of the API's read
 * models for one instance's history, which its own stream holds already. The outcomes are held per
 * instance between requests and each request folds only what was appended since, so a request costs
 * the new events and its page's bodies, not the instance's whole history; it is as current as the
 * store itself, on any replica and after any restart.
 */
@Injectable()
export class InstanceNotifications {
  /** Each held history is sized by its records when it was last caught up. */
  private readonly held: LRUCache<string, Held>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(MAX_HELD_NOTIFICATIONS) maxHeldRecords: number = MAX_HELD_RECORDS,
  ) {
    this.held = new LRUCache({ maxSize: maxHeldRecords });
  }

  /** Notifications held now, across instances. */
  get heldCount(): number {
    return this.held.calculatedSize;
  }

  /** The instance's notifications as its stream holds them now. */
  async read(instanceId: string): Promise<InstanceNotificationsView> {
    const history = await this.current(instanceId);
    const lastSequence = history.lastSequence;
    // The held history may move on meanwhile (another request caught up): the view stays at its moment.
    const between = (from: number, to: number, limit: number) =>
      history.between(from, Math.min(to, lastSequence), limit);
    const bodies = (records: NotificationRecord<bigint>[]) => this.bodies(instanceId, records);
    return {
      lastSequence,
      refs: (from, to, limit) =>
        between(from, to, limit).map(({ webhookId, sequence, body }) => ({
          webhookId,
          sequence,
          createdRevision: Number(body),
        })),
      async *withBodies(from, limit) {
        const page = between(from, lastSequence, limit);
        for (let start = 0; start < page.length; start += BODIES_PER_READ)
          yield* await bodies(page.slice(start, start + BODIES_PER_READ));
      },
    };
  }

  /** The history up to the stream's end now: the held one caught up, or a new one. */
  private async current(instanceId: string): Promise<NotificationHistory<bigint>> {
    let held = this.held.get(instanceId);
    if (!held) {
      held = { history: new NotificationHistory<bigint>(), next: 0n };
      this.held.set(instanceId, held, { size: 1 });
    }
    // A catch-up already running is waited for, then this request catches up from where it ended
    // (and tries again itself if that one failed).
    while (held.reading) await held.reading.catch(() => undefined);
    const reading = this.catchUp(instanceId, held).finally(() => (held.reading = undefined));
    held.reading = reading;
    await reading;
    // Held again at its new size (the cache sizes an entry when it is added): the instances used
    // least recently are forgotten until the rest fit, and one over the budget alone is forgotten
    // itself. One forgotten meanwhile to make room for others is not held again; its request still
    // gets its history.
    if (this.held.peek(instanceId) === held) {
      this.held.delete(instanceId);
      this.held.set(instanceId, held, { size: Math.max(1, held.history.size) });
    }
    return held.history;
  }

  /** Folds the stream from `held.next` to its end. Notifications streams are never deleted, so their
   * revisions only grow and a held history stays a prefix of the stream. */
  private async catchUp(instanceId: string, held: Held): Promise<void> {
    const stream = notificationsStreamName(instanceId);
    for (let count = FIRST_READ; ;) {
      const events = await this.store.readStream(stream, { fromRevision: held.next, maxCount: count });
      let bytes = 0;
      for (const event of events) {
        const typed = { type: event.type, data: event.data };
        if (isNotificationEvent(typed)) {
          held.history.apply(typed, () => event.revision);
          bytes += readBytes(typed);
        } else bytes += EVENT_BYTES;
        held.next = event.revision + 1n;
      }
      if (events.length < count) return;
      count = Math.max(1, Math.min(READ_CHUNK, Math.floor((count * READ_BYTES) / bytes)));
      // A long history is read in chunks, and other requests are served between them.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The records with their bodies, read from their NotificationCreated events. */
  private async bodies(instanceId: string, records: NotificationRecord<bigint>[]): Promise<NotificationRecord[]> {
    const found = await this.bodiesAt(
      instanceId,
      records.map((record) => record.body),
    );
    return records.map((record) => ({ ...record, body: found.get(record.body)! }));
  }

  /** The bodies of the NotificationCreated events at `wanted`, by revision. */
  private async bodiesAt(instanceId: string, wanted: bigint[]): Promise<Map<bigint, NotificationBody>> {
    const stream = notificationsStreamName(instanceId);
    const revisions = [...wanted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const found = new Map<bigint, NotificationBody>();
    let index = 0;
    while (index < revisions.length) {
      const from = revisions[index];
      const last = revisions[revisions.length - 1];
      const span = last - from + 1n;
      const events = await this.store.readStream(stream, {
        fromRevision: from,
        maxCount: span < BigInt(BODY_SPAN) ? Number(span) : BODY_SPAN,
      });
      for (const event of events) {
        if (event.type === 'NotificationCreated')
          found.set(event.revision, (event.data as NotificationCreated['data']).body);
      }
      while (index < revisions.length && found.has(revisions[index])) index += 1;
      // A revision the read covered but did not find: the stream lost it (never expected).
      if (index < revisions.length && (events.length === 0 || revisions[index] <= events[events.length - 1].revision)) {
        throw new Error(`notification ${revisions[index]} of ${stream} is no longer in the stream`);
      }
    }
    return found;
  }
}

/** About the bytes an event takes as read: the sealed personal fields of its body's items (most of a
 * large one; redeliveries recorded before section 11 copied the body too), EVENT_BYTES for the rest. */
function readBytes(event: NotificationEvent): number {
  const body = 'body' in event.data ? event.data.body : undefined;
  const items: ReadonlyArray<{ sealed: string }> =
    body === undefined ? [] : 'messages' in body ? body.messages : 'ack' in body ? body.ack : [];
  return items.reduce((sum, item) => sum + item.sealed.length + EVENT_BYTES, EVENT_BYTES);
}
