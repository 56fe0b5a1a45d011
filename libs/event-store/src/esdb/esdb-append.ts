import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  jsonEvent,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHAIN_KEY, chainHashOfJson, storedChain, withoutChain } from '../event-chain';
import { DuplicateEventIdError } from '../event-store.errors';
import type { AppendResult, EventToAppend, ExpectedRevision } from '../event-store.port';
import { checkExpectedRevision } from '../expected-revision';
import { translateEsdbError } from './esdb-errors';

/** How far back a retried append's events are looked for: the stream's last events. */
const RECENT = 32;
/** Tries of an `any` or `stream_exists` append that keeps losing the race to other writers. */
const MAX_ATTEMPTS = 50;

interface Tip {
  id: string;
  revision: bigint;
  position: bigint;
  chain: string | undefined;
}

/**
 * An append with its hash chain (event-chain.ts). The server cannot compute it, so the chain is
 * made here, from the stream's last events read in one backwards read, and written with the exact
 * revision that read found: a writer that came in between makes the server refuse it, so no two
 * events ever chain to the same one. That read also settles the caller's expected revision and
 * idempotency (a retried append whose events are among the last ones succeeds without writing
 * again); an `any` or `stream_exists` append that lost the race reads again and retries.
 */
export async function appendChained(
  client: EventStoreDBClient,
  streamName: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
): Promise<AppendResult> {
  for (let attempt = 1; ; attempt++) {
    const recent = await readRecent(client, streamName, Math.max(RECENT, events.length));
    const last = recent[0];
    if (recent.some((tip) => tip.id === events[0].id)) return alreadyWritten(recent, events);
    checkExpectedRevision(streamName, expected, last?.revision ?? null);

    let chain = last?.chain ?? '';
    const proposed = events.map((event) => {
      const metadata = withoutChain(event.metadata);
      chain = chainHashOfJson(
        chain,
        streamName,
        event.id,
        event.type,
        JSON.stringify(event.data) ?? 'null',
        JSON.stringify(metadata),
      );
      return jsonEvent({
        id: event.id,
        type: event.type,
        data: event.data as never,
        metadata: { ...metadata, [CHAIN_KEY]: chain } as never,
      });
    });
    try {
      const result = await client.appendToStream(streamName, proposed, {
        expectedRevision: last ? last.revision : NO_STREAM,
      });
      return { nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? 0n };
    } catch (error) {
      const retry =
        error instanceof WrongExpectedVersionError &&
        (expected === 'any' || expected === 'stream_exists') &&
        attempt < MAX_ATTEMPTS;
      if (!retry) throw translateEsdbError(error, streamName, expected);
      // A short random pause, so that writers racing for one stream spread out.
      await sleep(Math.random() * Math.min(2 ** attempt, 50));
    }
  }
}

/** The stream's last events, newest first; none when it does not exist (or was deleted). */
async function readRecent(client: EventStoreDBClient, streamName: string, maxCount: number): Promise<Tip[]> {
  const tips: Tip[] = [];
  try {
    for await (const resolved of client.readStream(streamName, { direction: BACKWARDS, fromRevision: END, maxCount })) {
      const event = resolved.event;
      if (!event) continue;
      const metadata = event.metadata instanceof Uint8Array ? {} : ((event.metadata ?? {}) as Record<string, unknown>);
      tips.push({
        id: event.id,
        revision: event.revision,
        position: event.position?.commit ?? 0n,
        chain: storedChain({ metadata }),
      });
    }
    return tips;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw translateEsdbError(error, streamName);
  }
}

/** A retried append: every event of it must be among the stream's last ones. */
function alreadyWritten(recent: readonly Tip[], events: readonly EventToAppend[]): AppendResult {
  let position = 0n;
  for (const { id } of events) {
    const found = recent.find((tip) => tip.id === id);
    if (!found) throw new DuplicateEventIdError(id);
    if (found.position > position) position = found.position;
  }
  return { nextExpectedRevision: recent[0].revision, position };
}
