import { Injectable } from '@nestjs/common';
import type { RateLimitsConfig } from '@gw/config';
import { Refusal } from '@gw/contract';
import { InjectConfig } from '@gw/nest-app';

/**
 * The ingest host's load shedding (docs/api.md section 6): at most INGEST_MAX_IN_FLIGHT recordings in
 * flight at once. Past that the API is recording as fast as it can, and a request more would only
 * wait in its queue and make every accepted message later; it is answered 0010 with `Retry-After: 1`
 * at once instead, before anything is recorded, so that a gateway sending faster than the service
 * can record backs off while what was accepted keeps its latency.
 */
@Injectable()
export class IngestCapacity {
  private inFlight = 0;

  constructor(@InjectConfig('rateLimits') private readonly limits: RateLimitsConfig) {}

  /** Takes a place for one recording; throws a rate-limit Refusal when none is free. The returned
   * function gives the place back (a second call does nothing). */
  admit(): () => void {
    const bound = this.limits.ingestInFlight;
    if (bound > 0 && this.inFlight >= bound) throw Refusal.rateLimited(1);
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }

  /** Recordings in flight now, for /metrics. */
  get current(): number {
    return this.inFlight;
  }
}
