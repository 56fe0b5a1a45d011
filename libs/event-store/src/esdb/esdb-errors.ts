import { WrongExpectedVersionError } from '@eventstore/db-client';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '../event-store.errors';
import type { ExpectedRevision } from '../event-store.port';

/** gRPC status codes that mean the server cannot serve now (not that the request is wrong). */
const UNAVAILABLE_GRPC_CODES = new Set([1, 4, 8, 13, 14]); // CANCELLED, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE
const UNAVAILABLE_TYPES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'not-leader', 'cancelled']);

/** Maps a client error to the port's errors: a conflict apart from an outage; others unchanged. */
export function translateEsdbError(error: unknown, streamName = '', expected: ExpectedRevision = 'any'): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion;
    return new WrongExpectedRevisionError(
      error.streamName ?? streamName,
      expected,
      typeof actual === 'bigint' ? actual : 'no_stream',
    );
  }
  const type = String((error as { type?: unknown })?.type ?? '');
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? '';
  if (
    UNAVAILABLE_TYPES.has(type) ||
    (typeof code === 'number' && UNAVAILABLE_GRPC_CODES.has(code)) ||
    /ECONNREFUSED|ECONNRESET|No connection established|Failed to discover|UNAVAILABLE|connection dropped/i.test(message)
  ) {
    return new EventStoreUnavailableError(`EventStoreDB unavailable: ${message}`, { cause: error });
  }
  return error;
}
