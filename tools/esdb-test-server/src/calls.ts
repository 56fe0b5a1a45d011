// Open calls, so that an outage (or stop) can end every one of them with UNAVAILABLE before the
// connections are torn down, and so that calls arriving while the server is down are refused.
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

export interface OpenCall {
  /** Ends the call with this status; a no-op if it has already ended. */
  abort(error: ServiceError): void;
}

export class CallRegistry {
  private readonly open = new Set<OpenCall>();
  private down = false;

  /** Registers a call; returns the function that forgets it (call it when the call ends). */
  track(call: OpenCall): () => void {
    this.open.add(call);
    return () => this.open.delete(call);
  }

  /** The error to refuse a new call with, or undefined while the server is up. */
  refusal(): ServiceError | undefined {
    return this.down ? unavailable('the EventStoreDB test server is simulating an outage') : undefined;
  }

  /** Ends every open call with UNAVAILABLE; new calls are refused until `resume()`. */
  abortAll(details: string): void {
    this.down = true;
    for (const call of [...this.open]) call.abort(unavailable(details));
    this.open.clear();
  }

  resume(): void {
    this.down = false;
  }
}

export function serviceError(code: status, details: string, metadata: Record<string, string> = {}): ServiceError {
  const trailers = new Metadata();
  for (const [key, value] of Object.entries(metadata)) trailers.set(key, value);
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: trailers });
}

function unavailable(details: string): ServiceError {
  return serviceError(status.UNAVAILABLE, details);
}
