import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { IngestCapacity } from '../ingest/ingest-capacity';
import { RateLimits } from '../rate-limits/rate-limits';
import { ReadModelsService } from '../read-models/read-models.service';
import { RequestMetrics } from './request-metrics';
import { StoreMetrics } from './store-metrics';

/** The API's Prometheus metrics, served at /metrics on the internal host: the process's own
 * (memory, event loop, GC), what the rate limiter holds, whose memory is bounded in bytes
 * (docs/api.md section 2), the ingest host's recordings in flight, requests and their latency, the event store's appends and group commits,
 * and how far the read models are behind the log. */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();
  readonly requests = new RequestMetrics(this.registry);

  constructor(limits: RateLimits, store: StoreMetrics, readModels: ReadModelsService, ingest: IngestCapacity) {
    collectDefaultMetrics({ register: this.registry });
    store.registerIn(this.registry);
    const gauges = [
      [
        'gw_rate_limit_keys',
        'Keys the rate limiter holds a bucket for, by limit (account, instance, source: failures on the public hosts, ingest_source: on the ingest host).',
        'keys',
      ],
      [
        'gw_rate_limit_bytes',
        'Estimated bytes the rate limiter holds, by limit; bounded whatever requests carry.',
        'bytes',
      ],
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
    new Gauge({
      name: 'gw_ingest_in_flight',
      help: 'Recordings the ingest host has in flight; past INGEST_MAX_IN_FLIGHT a request is answered 0010 at once.',
      registers: [this.registry],
      collect() {
        this.set(ingest.current);
      },
    });
    // Both lag gauges read one look at the log (ReadModelsService.lag says what exactly it
    // measures): a scrape collects every metric at once, so they share it. A store that cannot be
    // reached leaves them as they were rather than fail the scrape.
    let look: Promise<{ events: number; seconds: number } | undefined> | undefined;
    const lag = () =>
      (look ??= readModels
        .lag()
        .catch(() => undefined)
        .finally(() => (look = undefined)));
    new Gauge({
      name: 'gw_read_model_lag_events',
      help: "The log's head position minus the position the API's read models reflect: events on the embedded store, commit positions on EventStoreDB; 0 when caught up.",
      registers: [this.registry],
      async collect() {
        const value = await lag();
        if (value) this.set(value.events);
      },
    });
    new Gauge({
      name: 'gw_read_model_lag_seconds',
      help: "Age of the oldest event in the log that the API's read models do not reflect yet; 0 when caught up.",
      registers: [this.registry],
      async collect() {
        const value = await lag();
        if (value) this.set(value.seconds);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
