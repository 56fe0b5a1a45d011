// Server-side filters of $all reads and subscriptions: on the stream name or on the event type, by
// prefixes or by a regular expression (matched with JavaScript's RegExp, unanchored like .NET's
// Regex.IsMatch; the client's excludeSystemEvents() is the regex "^[^$].*" on the event type).
import { status, type ServiceError } from '@grpc/grpc-js';
import type { ReadReq } from '@eventstore/db-client/generated/streams_pb';
import { serviceError } from './calls';
import type { RecordedEvent } from './log';

/** EventStoreDB's read batch size, the search window when the client does not set one. */
const DEFAULT_SEARCH_WINDOW = 32;

export interface ServerFilter {
  matches(event: RecordedEvent): boolean;
  /**
   * A checkpoint is due after this many events considered (matching or not): EventStoreDB uses
   * checkpointIntervalMultiplier x maxSearchWindow (32 when the client sets no window).
   */
  checkpointInterval: number;
}

/** The filter of a read request; undefined for `no_filter`; a ServiceError if it is unusable. */
export function parseFilter(options: ReadReq.Options): ServerFilter | ServiceError | undefined {
  const filter = options.getFilter();
  if (!options.hasFilter() || !filter) return undefined;
  const expression = filter.getStreamIdentifier() ?? filter.getEventType();
  if (!expression)
    return serviceError(status.INVALID_ARGUMENT, 'a filter needs a stream-name or an event-type expression');
  const subject = filter.hasStreamIdentifier()
    ? (event: RecordedEvent) => event.streamId
    : (event: RecordedEvent) => event.type;

  let test: (value: string) => boolean;
  const prefixes = expression.getPrefixList();
  if (prefixes.length > 0) {
    test = (value) => prefixes.some((prefix) => value.startsWith(prefix));
  } else {
    let regex: RegExp;
    try {
      regex = new RegExp(expression.getRegex());
    } catch (error) {
      return serviceError(
        status.INVALID_ARGUMENT,
        `the filter's regex is not usable here: ${(error as Error).message}`,
      );
    }
    test = (value) => regex.test(value);
  }

  const multiplier = filter.getCheckpointintervalmultiplier();
  if (multiplier <= 0)
    return serviceError(status.INVALID_ARGUMENT, 'the checkpoint interval multiplier must be greater than 0');
  const window = filter.hasMax() && filter.getMax() > 0 ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
  return { matches: (event) => test(subject(event)), checkpointInterval: multiplier * window };
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof Error && typeof (value as Partial<ServiceError>).code === 'number';
}
