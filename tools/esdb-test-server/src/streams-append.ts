// Streams.Append (client streaming): the first message carries the options (stream and expected
// revision), each further one a proposed event. The answer is a Success (current revision and
// position) or a WrongExpectedVersion carrying the actual revision, which the client turns into
// WrongExpectedVersionError (or a `success: false` result when throwOnAppendFailure is off).
import { status, type handleClientStreamingCall, type ServiceError } from '@grpc/grpc-js';
import { Empty } from '@eventstore/db-client/generated/shared_pb';
import { AppendReq, AppendResp } from '@eventstore/db-client/generated/streams_pb';
import { serviceError, type CallRegistry } from './calls';
import type { AppendResult, InMemoryLog, ProposedEvent } from './log';
import { expectedRevisionOf, streamName, uuidToString } from './proto';

/** EventStoreDB's default MaxAppendSize (1 MiB of event data, metadata and type per append). */
const MAX_APPEND_SIZE = 1024 * 1024;

export function appendHandler(log: InMemoryLog, calls: CallRegistry): handleClientStreamingCall<AppendReq, AppendResp> {
  return (call, callback) => {
    let done = false;
    const finish = (error: ServiceError | null, response?: AppendResp): void => {
      if (done) return;
      done = true;
      forget();
      if (error) callback(error);
      else callback(null, response);
    };
    const forget = calls.track({ abort: (error) => finish(error) });
    const refusal = calls.refusal();
    if (refusal) return finish(refusal);

    let options: AppendReq.Options | undefined;
    const proposed: ProposedEvent[] = [];
    let size = 0;

    call.on('data', (request: AppendReq) => {
      if (done) return;
      if (!options) {
        if (!request.hasOptions())
          return finish(serviceError(status.INVALID_ARGUMENT, 'the first AppendReq must carry the options'));
        options = request.getOptions()!;
        return;
      }
      const message = request.getProposedMessage();
      if (!message)
        return finish(
          serviceError(status.INVALID_ARGUMENT, 'every AppendReq after the first must carry a proposed message'),
        );
      const metadata = message.getMetadataMap();
      const type = metadata.get('type');
      const contentType = metadata.get('content-type');
      const missing = [type === undefined ? 'type' : '', contentType === undefined ? 'content-type' : ''].filter(
        Boolean,
      );
      if (missing.length > 0) {
        return finish(
          serviceError(status.INVALID_ARGUMENT, `Missing required metadata property: ${missing.join(', ')}`, {
            exception: 'missing-required-metadata-property',
            'required-metadata-properties': missing.join(','),
          }),
        );
      }
      const id = uuidToString(message.getId());
      if (!id) return finish(serviceError(status.INVALID_ARGUMENT, 'a proposed message has no id'));
      const event: ProposedEvent = {
        id,
        type: type!,
        contentType: contentType!,
        data: message.getData_asU8(),
        customMetadata: message.getCustomMetadata_asU8(),
      };
      size += event.data.length + event.customMetadata.length + Buffer.byteLength(event.type);
      if (size > MAX_APPEND_SIZE) {
        return finish(
          serviceError(status.INVALID_ARGUMENT, `Maximum Append Size of ${MAX_APPEND_SIZE} Exceeded.`, {
            exception: 'maximum-append-size-exceeded',
            'maximum-append-size': String(MAX_APPEND_SIZE),
          }),
        );
      }
      proposed.push(event);
    });

    call.on('end', () => {
      if (done) return;
      if (!options) return finish(serviceError(status.INVALID_ARGUMENT, 'an append needs its options message'));
      const expected = expectedRevisionOf(options);
      if (!expected)
        return finish(serviceError(status.INVALID_ARGUMENT, 'the append options carry no expected revision'));
      finish(null, toResponse(log.append(streamName(options.getStreamIdentifier()), expected, proposed)));
    });
    // The client went away (or the connection did): nothing to answer.
    call.on('cancelled', () => {
      done = true;
      forget();
    });
    call.on('error', () => finish(serviceError(status.CANCELLED, 'the append call failed')));
  };
}

function toResponse(result: AppendResult): AppendResp {
  const response = new AppendResp();
  if (result.kind === 'success') {
    const success = new AppendResp.Success();
    if (result.currentRevision < 0) success.setNoStream(new Empty());
    else success.setCurrentRevision(String(result.currentRevision));
    if (result.position === undefined) success.setNoPosition(new Empty());
    else {
      const position = new AppendResp.Position();
      position.setCommitPosition(String(result.position));
      position.setPreparePosition(String(result.position));
      success.setPosition(position);
    }
    response.setSuccess(success);
    return response;
  }
  const wrong = new AppendResp.WrongExpectedVersion();
  if (result.currentRevision < 0) wrong.setCurrentNoStream(new Empty());
  else wrong.setCurrentRevision(String(result.currentRevision));
  const { expected } = result;
  if (expected.kind === 'exact') wrong.setExpectedRevision(String(expected.revision));
  else if (expected.kind === 'no_stream') wrong.setExpectedNoStream(new Empty());
  else if (expected.kind === 'stream_exists') wrong.setExpectedStreamExists(new Empty());
  else wrong.setExpectedAny(new Empty());
  response.setWrongExpectedVersion(wrong);
  return response;
}
