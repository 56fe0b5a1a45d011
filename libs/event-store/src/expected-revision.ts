import { RequiredStreamMissingError, WrongExpectedRevisionError } from './event-store.errors';
import type { ExpectedRevision, RequiredStream } from './event-store.port';

/** Refuses an append whose expected revision does not hold for a stream now at `current` (null: the
 * stream does not exist), as every adapter that checks it itself must. */
export function checkExpectedRevision(streamName: string, expected: ExpectedRevision, current: bigint | null): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'bigint' && current === expected);
  if (!ok) throw new WrongExpectedRevisionError(streamName, expected, current ?? 'no_stream');
}

/** Refuses an append whose required stream (AppendOptions.requires) is missing, its last event's type
 * being `lastType` (undefined: the stream does not exist), or has ended. */
export function checkRequiredStream(required: RequiredStream, lastType: string | undefined): void {
  if (lastType === undefined || required.endedBy.includes(lastType))
    throw new RequiredStreamMissingError(required.streamName);
}
