import type { Dispatcher } from 'undici';

/** After the headers, the body is read (and discarded) for at most this long. */
export const BODY_GRACE_MS = 2000;

/**
 * One attempt as undici reports it: settled by the answer's status line and headers, by a failure,
 * or by its timer, whichever comes first. The body that follows is read and dropped for at most
 * BODY_GRACE_MS, so that the connection can serve the next attempt; after that it is closed.
 */
export class Attempt implements Dispatcher.DispatchHandler {
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private drain?: NodeJS.Timeout;

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (answer: { status: number; retryAfterSeconds: number | null }) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    // The attempt ends here; its connection is ended by the agent's own header (or connect) timeout
    // a second later. Aborting it here would do it at once, but undici 7 then queues the aborted
    // request again and opens a new connection for it, which serves nothing (nodejs/undici#5845).
    this.timer = setTimeout(() => this.fail(new DeliveryTimeout(timeoutMs)), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Connected after the attempt timed out: it is not sent (at the price above, in this rare case).
    if (this.settled) controller.abort(new DeliveryTimeout(this.timeoutMs));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // An informational answer (102, 103) is not the answer. (A 100 Continue nobody asked for ends the
    // attempt before it gets here: undici takes it for a broken answer, where node:http skipped it.)
    if (statusCode < 200 || this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    // A body still coming after BODY_GRACE_MS is cut off with its connection (undici then makes a
    // spare connection, as above: a receiver that streams its answer for seconds is rare).
    this.drain = setTimeout(() => controller.abort(new Error('answer body not read in time')), BODY_GRACE_MS);
    this.resolve({ status: statusCode, retryAfterSeconds: parseRetryAfter(headers['retry-after']) });
  }

  onResponseData(): void {
    // The body is not needed.
  }

  onResponseEnd(): void {
    clearTimeout(this.drain);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.drain);
    this.fail(error);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(error);
  }
}

/** An attempt made while the sender was being closed (the app is stopping). */
export class SenderStopping extends Error {
  constructor() {
    super('cancelled: the sender was stopping');
    this.name = 'SenderStopping';
  }
}

export class DeliveryTimeout extends Error {
  constructor(ms: number) {
    super(`timeout: no answer within ${ms} ms`);
    this.name = 'DeliveryTimeout';
  }
}

/** `Retry-After` as seconds from now, from either of its forms; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now) / 1000));
}
