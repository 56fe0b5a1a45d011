import { chainHash, storedChain, unreadableReason, type EventStore, type RecordedEvent } from '@gw/event-store';

/** The first event whose place in its stream's hash chain does not hold. */
export interface ChainBreak {
  stream: string;
  revision: bigint;
  position: bigint;
  /** Why, in words; never a hash. */
  reason: string;
}

export interface ChainReport {
  /** Events read, up to the position checked. */
  events: number;
  streams: number;
  /** Events that break their stream's chain. */
  broken: number;
  firstBreak?: ChainBreak;
}

/** What is kept of each stream while the log is read: its last event's place in the chain. */
interface StreamTip {
  chain: string;
  revision: bigint;
  id: string;
}

/** Events read per page: the log is never held whole, only one page and one tip per stream. */
const PAGE = 5000;

/**
 * Checks the hash chain of every stream (docs/api.md 9.2) over the log up to `upTo`, read once in
 * position order. Each event's `metadata.chain` must be the hash of its stored content and of the
 * previous event of its stream, so an event whose bytes were changed, or one removed from or moved
 * within its stream, breaks it. A chain starts again only where a stream was deleted and made anew:
 * on EventStoreDB a deleted stream's events stay in `$all` until a scavenge, and then the first
 * event of the new stream starts from nothing while the old ones are no longer in the stream.
 */
export async function checkChains(store: EventStore, upTo: bigint): Promise<ChainReport> {
  const tips = new Map<string, StreamTip>();
  const report: ChainReport = { events: 0, streams: 0, broken: 0 };
  let after: bigint | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    for (const event of page) {
      if (event.position > upTo) return { ...report, streams: tips.size };
      report.events += 1;
      const tip = tips.get(event.streamName);
      const reason = await breakOf(store, event, tip);
      if (reason !== undefined) {
        report.broken += 1;
        report.firstBreak ??= { stream: event.streamName, revision: event.revision, position: event.position, reason };
      }
      // The stored value is carried on, so that one altered event is named alone, not every later one.
      tips.set(event.streamName, { chain: storedChain(event) ?? '', revision: event.revision, id: event.id });
    }
    if (page.length < PAGE) return { ...report, streams: tips.size };
    after = page[page.length - 1].position;
  }
}

/** Why `event` breaks its stream's chain, or undefined when it holds. */
async function breakOf(
  store: EventStore,
  event: RecordedEvent,
  tip: StreamTip | undefined,
): Promise<string | undefined> {
  const unreadable = unreadableReason(event);
  if (unreadable) return unreadable;
  const stored = storedChain(event);
  if (stored === undefined) return 'it carries no hash chain';
  if (!tip)
    return stored === chainHash('', event)
      ? undefined
      : 'its stored content does not match its hash (altered, or events before it removed)';
  if (stored === chainHash(tip.chain, event)) {
    return event.revision === tip.revision + 1n ? undefined : `its revision does not follow revision ${tip.revision}`;
  }
  if (
    stored === chainHash('', event) &&
    event.revision > tip.revision &&
    (await deletedBefore(store, event.streamName, tip.id))
  )
    return undefined;
  return `its stored content does not match its hash, or it does not follow revision ${tip.revision} (altered, removed or moved events)`;
}

/** Whether the stream's earlier events were deleted with it (so that `event` starts a new stream):
 * the one seen last is no longer in the stream as the store holds it. Read only for a chain that
 * starts again, which only a deleted and recreated stream does. */
async function deletedBefore(store: EventStore, streamName: string, lastSeenId: string): Promise<boolean> {
  const current = await store.readStream(streamName);
  return !current.some((event) => event.id === lastSeenId);
}
