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
  /** Once the request is on a socket: what ends it there. */
  private controller?: Dispatcher.DispatchController;

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (answer: { status: number; retryAfterSeconds: number | null }) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    // On a socket, the request is ended there too. Before (a connection still being made) there is
    // nothing to abort: the agent's connect timeout drops it, and onRequestStart ends a late one.
    this.timer = setTimeout(() => {
      const timeout = new DeliveryTimeout(timeoutMs);
      this.fail(timeout);
      this.controller?.abort(timeout);
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.settled) controller.abort(new DeliveryTimeout(this.timeoutMs));
    else this.controller = controller;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // A 1xx is not the answer (undici passes 100 Continue and the like on).
    if (statusCode < 200 || this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
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
