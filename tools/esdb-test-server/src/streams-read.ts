// Streams.Read (server streaming): one-off reads of a stream or of $all (with `count`), and
// catch-up subscriptions (with `subscription`). Semantics follow EventStoreDB:
// - readStream: forwards from a revision includes it; backwards from a revision includes it and
//   goes down; START is the first revision, END is past the last event (backwards: the last event).
//   A missing or (soft-)deleted stream answers `stream_not_found`, which the client turns into
//   StreamNotFoundError; a recreated one starts at its first revision after the deletion.
// - readAll: forwards from a position includes the event at it (first event at or after it);
//   backwards from a position gives the events strictly before it; END backwards is the last event.
// - subscribeToAll from a position is exclusive (events after it); subscribeToStream from a
//   revision likewise.
import { status, type handleServerStreamingCall } from '@grpc/grpc-js';
import { ReadReq, type ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { serviceError, type CallRegistry } from './calls';
import { isServiceError, parseFilter, type ServerFilter } from './filter';
import type { InMemoryLog, RecordedEvent } from './log';
import { eventResponse, streamName, streamNotFoundResponse } from './proto';
import { ResponseStream } from './response-stream';
import { runSubscription } from './subscription';

const Direction = ReadReq.Options.ReadDirection;
const RevisionCase = ReadReq.Options.StreamOptions.RevisionOptionCase;
const AllCase = ReadReq.Options.AllOptions.AllOptionCase;

export function readHandler(log: InMemoryLog, calls: CallRegistry): handleServerStreamingCall<ReadReq, ReadResp> {
  return (call) => {
    const out = new ResponseStream(call, calls);
    const refusal = calls.refusal();
    if (refusal) return out.fail(refusal);
    const options = call.request.getOptions();
    if (!options) return out.fail(serviceError(status.INVALID_ARGUMENT, 'a ReadReq needs its options'));
    const filter = parseFilter(options);
    if (isServiceError(filter)) return out.fail(filter);

    if (options.hasSubscription()) return subscribe(log, out, options, filter);
    void read(log, out, options, filter).catch((error: Error) =>
      out.fail(serviceError(status.INTERNAL, `the test server failed to read: ${error.message}`)),
    );
  };
}

function subscribe(
  log: InMemoryLog,
  out: ResponseStream,
  options: ReadReq.Options,
  filter: ServerFilter | undefined,
): void {
  const all = options.getAll();
  if (all) {
    let from: number;
    switch (all.getAllOptionCase()) {
      case AllCase.START:
        from = 0;
        break;
      case AllCase.END:
        from = log.allEvents.length;
        break;
      default: {
        // Exclusive: the first event strictly after the position.
        from = log.indexAtOrAfter(Number(all.getPosition()?.getCommitPosition() ?? 0) + 1);
      }
    }
    return runSubscription(log, out, { source: () => log.allEvents, from, filter });
  }
  const stream = options.getStream();
  if (!stream) return out.fail(serviceError(status.INVALID_ARGUMENT, 'a subscription needs a stream or $all'));
  const name = streamName(stream.getStreamIdentifier());
  // Indexed by revision; a deleted stream's hidden events are not sent from START.
  const source = () => log.streamView(name)?.events ?? [];
  let from: number;
  switch (stream.getRevisionOptionCase()) {
    case RevisionCase.START:
      from = log.streamView(name)?.from ?? 0;
      break;
    case RevisionCase.END:
      from = source().length;
      break;
    default:
      from = Number(stream.getRevision()) + 1;
  }
  runSubscription(log, out, { source, from });
}

async function read(
  log: InMemoryLog,
  out: ResponseStream,
  options: ReadReq.Options,
  filter: ServerFilter | undefined,
): Promise<void> {
  const count = Math.max(0, Math.min(Number(options.getCount() || '0'), Number.MAX_SAFE_INTEGER));
  const backwards = options.getReadDirection() === Direction.BACKWARDS;

  let events: readonly RecordedEvent[];
  let first: number;
  /** The lowest index a read may send: the first visible revision of a stream. */
  let lowest = 0;
  const all = options.getAll();
  if (all) {
    events = log.allEvents;
    switch (all.getAllOptionCase()) {
      case AllCase.START:
        first = backwards ? -1 : 0;
        break;
      case AllCase.END:
        first = backwards ? events.length - 1 : events.length;
        break;
      default: {
        const at = log.indexAtOrAfter(Number(all.getPosition()?.getCommitPosition() ?? 0));
        first = backwards ? at - 1 : at;
      }
    }
  } else {
    const stream = options.getStream();
    if (!stream) return out.fail(serviceError(status.INVALID_ARGUMENT, 'a read needs a stream or $all'));
    const name = streamName(stream.getStreamIdentifier());
    const found = log.streamView(name);
    if (!found) {
      await out.write(streamNotFoundResponse(name));
      return out.end();
    }
    ({ events, from: lowest } = found);
    switch (stream.getRevisionOptionCase()) {
      case RevisionCase.START:
        first = lowest;
        break;
      case RevisionCase.END:
        first = backwards ? events.length - 1 : events.length;
        break;
      default:
        first = Math.min(Number(stream.getRevision()), backwards ? events.length - 1 : events.length);
        if (!backwards) first = Math.max(first, lowest);
    }
    filter = undefined; // EventStoreDB ignores filters on stream reads
  }

  // A snapshot of the end, so that a long read does not chase concurrent appends.
  const end = events.length;
  let sent = 0;
  for (let i = first; sent < count && i >= lowest && i < end && !out.closed; i += backwards ? -1 : 1) {
    const event = events[i];
    if (filter && !filter.matches(event)) continue;
    await out.write(eventResponse(event));
    sent += 1;
  }
  out.end();
}
