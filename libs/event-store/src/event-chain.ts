import * as crypto from 'node:crypto';
import type { RecordedEvent } from './event-store.port';

/**
 * The tamper evidence of the log (docs/api.md section 9): every adapter, inside its append and
 * atomically with the write, stores in each event's `metadata.chain`
 *
 *   sha256hex(prevChain + "\n" + JSON.stringify([streamName, id, type, data, metaWithoutChain]))
 *
 * where prevChain is the `metadata.chain` of the stream's previous event ("" for the first event of
 * a stream, or of a stream deleted and made anew) and metaWithoutChain the metadata as the writer
 * gave it (key order kept). The revision is not hashed: a recreated EventStoreDB stream continues
 * its revisions. Changing a stored event's bytes, or removing or moving an event within its stream,
 * breaks the chain from there on; removing a stream's last events does not (no chain can tell).
 */
export const CHAIN_KEY = 'chain';

/**
 * Set in the metadata of an event read back whose stored data or metadata is no longer valid JSON
 * (someone edited the store's files): its value lists which ('data', 'metadata'). Such an event is
 * still returned, with `data` undefined (and metadata `{ $unreadable }` alone when the metadata is
 * the damaged part), so that reads of the rest go on and `verifyStreamChain` can name it.
 */
export const UNREADABLE_KEY = '$unreadable';

/** The fields of a stored event that its chain hash covers. */
export type ChainedEvent = Pick<RecordedEvent, 'streamName' | 'id' | 'type' | 'data' | 'metadata'>;

/** A stream's chain verified: intact, or the first revision where it breaks and why. */
export type ChainVerdict = { ok: true } | { ok: false; revision: bigint; reason: string };

/** The one-shot `crypto.hash` (Node 20.12 on) costs half of a Hash object; on the write path. */
const sha256hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The hash chaining `event` to the previous event of its stream, whose chain is `prev`. */
export function chainHash(prev: string, event: ChainedEvent): string {
  return chainHashOfJson(
    prev,
    event.streamName,
    event.id,
    event.type,
    JSON.stringify(event.data) ?? 'null',
    JSON.stringify(withoutChain(event.metadata)),
  );
}

/**
 * The same hash from the JSON texts an adapter stores, so that the write path serialises data and
 * metadata once. The concatenation is what JSON.stringify gives for the array of chainHash.
 */
export function chainHashOfJson(
  prev: string,
  streamName: string,
  id: string,
  type: string,
  dataJson: string,
  metadataJson: string,
): string {
  const content = `[${JSON.stringify(streamName)},${JSON.stringify(id)},${JSON.stringify(type)},${dataJson},${metadataJson}]`;
  return sha256hex(`${prev}\n${content}`);
}

/** The metadata as the writer gave it: without the chain an adapter added (or a caller passed). */
export function withoutChain(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!metadata) return {};
  if (!(CHAIN_KEY in metadata)) return metadata;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) if (key !== CHAIN_KEY) rest[key] = value;
  return rest;
}

/** The chain stored on an event, if it carries one. */
export function storedChain(event: Pick<RecordedEvent, 'metadata'>): string | undefined {
  const chain = event.metadata?.[CHAIN_KEY];
  return typeof chain === 'string' ? chain : undefined;
}

/** Why an event read back could not be parsed ("stored data is not valid JSON"), if so. */
export function unreadableReason(event: Pick<RecordedEvent, 'metadata'>): string | undefined {
  const parts = event.metadata?.[UNREADABLE_KEY];
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  return `stored ${parts.join(' and ')} ${parts.length > 1 ? 'are' : 'is'} not valid JSON`;
}

/**
 * Checks the chain of one stream's events, as `readStream` returns them (revision order): the first
 * event starts from "", each next one from the previous one's stored chain, and revisions follow
 * each other. Names the first event that breaks it; reasons never hold a hash.
 */
export function verifyStreamChain(events: readonly RecordedEvent[]): ChainVerdict {
  let prev = '';
  for (const [i, event] of events.entries()) {
    const fail = (reason: string): ChainVerdict => ({ ok: false, revision: event.revision, reason });
    const unreadable = unreadableReason(event);
    if (unreadable) return fail(unreadable);
    if (i > 0 && event.revision !== events[i - 1].revision + 1n)
      return fail(`its revision does not follow revision ${events[i - 1].revision}`);
    const stored = storedChain(event);
    if (stored === undefined) return fail('it carries no hash chain');
    if (stored !== chainHash(prev, event)) {
      return fail(
        'its stored content does not match its hash (it was altered, or an event before it was removed or moved)',
      );
    }
    prev = stored;
  }
  return { ok: true };
}
