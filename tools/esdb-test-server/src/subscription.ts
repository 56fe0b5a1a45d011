// Catch-up subscriptions ($all and single streams). The answer starts with a confirmation, then the
// existing events after the start point, then one `caughtUp` message (the client emits it as the
// subscription's 'caughtUp' event), then live events as they are appended. A single cursor walks
// the log, so there is no gap and no duplicate between the catch-up and the live phase. With a
// server-side filter, a checkpoint (the position of the last event considered, matching or not)
// follows every `checkpointInterval` events considered, in both phases.
import { randomUUID } from 'node:crypto';
import type { InMemoryLog, RecordedEvent } from './log';
import type { ServerFilter } from './filter';
import { caughtUpResponse, checkpointResponse, confirmationResponse, eventResponse } from './proto';
import type { ResponseStream } from './response-stream';

export interface SubscriptionOptions {
  /** The events subscribed to, in order; read again on every append, since it only grows. */
  source: () => readonly RecordedEvent[];
  /** Index in `source()` of the first event to send. */
  from: number;
  filter?: ServerFilter;
}

export function runSubscription(log: InMemoryLog, out: ResponseStream, options: SubscriptionOptions): void {
  const { source, filter } = options;
  let cursor = options.from;
  let considered = 0;
  let caughtUp = false;
  let pumping = false;

  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        if (out.closed) return;
        const events = source();
        if (cursor >= events.length) break;
        const event = events[cursor];
        cursor += 1;
        if (!filter || filter.matches(event)) await out.write(eventResponse(event));
        if (filter && ++considered >= filter.checkpointInterval) {
          considered = 0;
          await out.write(checkpointResponse(event.position));
        }
      }
      if (!caughtUp) {
        caughtUp = true;
        await out.write(caughtUpResponse());
      }
    } finally {
      pumping = false;
    }
    // Events appended while the caught-up message waited for the client are picked up here.
    if (!out.closed && cursor < source().length) void pump();
  };

  const unsubscribe = log.onAppended(() => void pump());
  out.onClose(unsubscribe);
  void out.write(confirmationResponse(randomUUID())).then(pump);
}
