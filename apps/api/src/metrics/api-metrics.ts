import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { RateLimits } from '../rate-limits/rate-limits';

/** The API's Prometheus metrics: the process's own (memory, event loop, GC) and what the rate
 * limiter holds, whose memory is bounded in bytes (CONTRACT section 2). */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();

  constructor(limits: RateLimits) {
    collectDefaultMetrics({ register: this.registry });
    const gauges = [
      ['gw_rate_limit_keys', 'Keys the rate limiter holds a bucket for, by limit (account, instance, source).', 'keys'],
      ['gw_rate_limit_bytes', 'Estimated bytes the rate limiter holds, by limit; bounded whatever requests carry.', 'bytes'],
    ] as const;
    for (const [name, help, measure] of gauges) {
      new Gauge({
        name,
        help,
        labelNames: ['limit'],
        registers: [this.registry],
        collect() {
          for (const [limit, held] of Object.entries(limits.usage())) this.set({ limit }, held[measure]);
        },
      });
    }
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
