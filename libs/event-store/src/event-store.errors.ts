import type { ExpectedRevision } from './event-store.port';

/** Base of the port's errors, so callers can tell them from programming errors. */
export abstract class EventStoreError extends Error {}

/** The stream was not at the expected revision: someone else wrote first. Safe to reload and retry. */
export class WrongExpectedRevisionError extends EventStoreError {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id is already stored in a different stream or at a different place. */
export class DuplicateEventIdError extends EventStoreError {
  constructor(readonly eventId: string) {
    super(`event id ${eventId} is already stored elsewhere`);
    this.name = 'DuplicateEventIdError';
  }
}

/** The stream an append requires (AppendOptions.requires) does not exist or has ended. */
export class RequiredStreamMissingError extends EventStoreError {
  constructor(readonly streamName: string) {
    super(`stream ${streamName} does not exist or has ended`);
    this.name = 'RequiredStreamMissingError';
  }
}

/** The store cannot be reached or cannot serve right now (locked, I/O error, connection lost). */
export class EventStoreUnavailableError extends EventStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreUnavailableError';
  }
}
