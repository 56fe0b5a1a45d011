// Conversions between the client's protobuf messages and the in-memory log's records.
import { StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { AppendReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import type { ExpectedRevision, RecordedEvent } from './log';

export function streamName(identifier: StreamIdentifier | undefined): string {
  return Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');
}

function streamIdentifier(name: string): StreamIdentifier {
  const identifier = new StreamIdentifier();
  identifier.setStreamName(Uint8Array.from(Buffer.from(name, 'utf8')));
  return identifier;
}

/** A UUID message (string or structured form) as the canonical lower-case string. */
export function uuidToString(uuid: UUID | undefined): string | undefined {
  if (!uuid) return undefined;
  if (uuid.hasStructured()) {
    const structured = uuid.getStructured()!;
    const bytes = Buffer.alloc(16);
    bytes.writeBigInt64BE(BigInt(structured.getMostSignificantBits()), 0);
    bytes.writeBigInt64BE(BigInt(structured.getLeastSignificantBits()), 8);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return uuid.getString().toLowerCase();
}

/** EventStoreDB reports the content type as JSON or binary only. */
function isJson(contentType: string): boolean {
  return contentType === 'application/json';
}

/** A ReadResp carrying one event (never a link: the test server writes no link events). */
export function eventResponse(event: RecordedEvent): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  const id = new UUID();
  id.setString(event.id);
  recorded.setId(id);
  recorded.setStreamIdentifier(streamIdentifier(event.streamId));
  recorded.setStreamRevision(String(event.revision));
  recorded.setCommitPosition(String(event.position));
  recorded.setPreparePosition(String(event.position));
  const metadata = recorded.getMetadataMap();
  metadata.set('type', event.type);
  metadata.set('content-type', isJson(event.contentType) ? 'application/json' : 'application/octet-stream');
  metadata.set('created', event.created.toString());
  recorded.setData(event.data);
  recorded.setCustomMetadata(event.customMetadata);

  const readEvent = new ReadResp.ReadEvent();
  readEvent.setEvent(recorded);
  readEvent.setCommitPosition(String(event.position));
  const response = new ReadResp();
  response.setEvent(readEvent);
  return response;
}

export function checkpointResponse(position: number): ReadResp {
  const checkpoint = new ReadResp.Checkpoint();
  checkpoint.setCommitPosition(String(position));
  checkpoint.setPreparePosition(String(position));
  const response = new ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

export function confirmationResponse(subscriptionId: string): ReadResp {
  const confirmation = new ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(subscriptionId);
  const response = new ReadResp();
  response.setConfirmation(confirmation);
  return response;
}

export function caughtUpResponse(): ReadResp {
  const response = new ReadResp();
  response.setCaughtUp(new ReadResp.CaughtUp());
  return response;
}

export function streamNotFoundResponse(name: string): ReadResp {
  const notFound = new ReadResp.StreamNotFound();
  notFound.setStreamIdentifier(streamIdentifier(name));
  const response = new ReadResp();
  response.setStreamNotFound(notFound);
  return response;
}

/** The expected revision of an append's or a delete's options: both messages number the cases alike. */
const Case = AppendReq.Options.ExpectedStreamRevisionCase;

export function expectedRevisionOf(options: {
  getExpectedStreamRevisionCase(): number;
  getRevision(): string;
}): ExpectedRevision | undefined {
  switch (options.getExpectedStreamRevisionCase()) {
    case Case.ANY:
      return { kind: 'any' };
    case Case.NO_STREAM:
      return { kind: 'no_stream' };
    case Case.STREAM_EXISTS:
      return { kind: 'stream_exists' };
    case Case.REVISION:
      return { kind: 'exact', revision: Number(options.getRevision()) };
    default:
      return undefined;
  }
}
