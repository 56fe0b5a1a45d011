// Streams.Delete (unary): EventStoreDB's soft delete (see log.ts). The answer carries the position of
// the metastream record written, or no position when there was nothing to delete; an expected
// revision that does not hold answers FAILED_PRECONDITION with the trailers the client turns into
// WrongExpectedVersionError, as the real server does.
import { status, type handleUnaryCall } from '@grpc/grpc-js';
import { Empty } from '@eventstore/db-client/generated/shared_pb';
import { DeleteReq, DeleteResp } from '@eventstore/db-client/generated/streams_pb';
import { serviceError, type CallRegistry } from './calls';
import type { InMemoryLog } from './log';
import { expectedRevisionOf, streamName } from './proto';

/** The numbers the real server puts in the `expected-version` trailer for the symbolic cases. */
const EXPECTED_VERSION = { no_stream: '-1', any: '-2', stream_exists: '-4' } as const;

export function deleteHandler(log: InMemoryLog, calls: CallRegistry): handleUnaryCall<DeleteReq, DeleteResp> {
  return (call, callback) => {
    const refusal = calls.refusal();
    if (refusal) return callback(refusal);
    const options = call.request.getOptions();
    const expected = options && expectedRevisionOf(options);
    if (!options || !expected)
      return callback(serviceError(status.INVALID_ARGUMENT, 'a DeleteReq needs its options and an expected revision'));
    const name = streamName(options.getStreamIdentifier());
    const result = log.delete(name, expected);
    if (result.kind === 'wrong_expected_version') {
      const trailers: Record<string, string> = {
        exception: 'wrong-expected-version',
        'stream-name': name,
        'expected-version': expected.kind === 'exact' ? String(expected.revision) : EXPECTED_VERSION[expected.kind],
      };
      if (result.currentRevision >= 0) trailers['actual-version'] = String(result.currentRevision);
      return callback(
        serviceError(
          status.FAILED_PRECONDITION,
          `Append failed due to WrongExpectedVersion. Stream: ${name}`,
          trailers,
        ),
      );
    }
    const response = new DeleteResp();
    if (result.position === undefined) response.setNoPosition(new Empty());
    else {
      const position = new DeleteResp.Position();
      position.setCommitPosition(String(result.position));
      position.setPreparePosition(String(result.position));
      response.setPosition(position);
    }
    callback(null, response);
  };
}
