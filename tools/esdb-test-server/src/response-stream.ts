// A server-streaming call's response side: writes that wait for the client when it applies
// backpressure, and an end that happens once, whether the server finishes, fails the call, the
// client cancels or an outage aborts it.
import type { ServerWritableStream, ServiceError } from '@grpc/grpc-js';
import type { ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import type { CallRegistry } from './calls';

export class ResponseStream {
  private ended = false;
  private readonly forget: () => void;
  private readonly closeListeners: Array<() => void> = [];
  private wake: (() => void) | undefined;

  constructor(
    private readonly call: ServerWritableStream<ReadReq, ReadResp>,
    calls: CallRegistry,
  ) {
    this.forget = calls.track({ abort: (error) => this.fail(error) });
    call.on('cancelled', () => this.close());
    call.on('drain', () => this.wakeUp());
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Runs `listener` once when the call ends for whatever reason. */
  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  /** Writes one response; resolves once the client can take more (or the call has ended). */
  async write(response: ReadResp): Promise<void> {
    if (this.ended) return;
    if (this.call.write(response)) return;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  /** Ends the call with status OK. */
  end(): void {
    if (this.close()) this.call.end();
  }

  /** Ends the call with an error status (grpc-js sends it once the queued responses are out). */
  fail(error: ServiceError): void {
    if (this.close()) this.call.emit('error', error);
  }

  private close(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.forget();
    this.wakeUp();
    for (const listener of this.closeListeners.splice(0)) listener();
    return true;
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
