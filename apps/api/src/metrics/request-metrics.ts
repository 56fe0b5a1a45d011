import type { ServerResponse } from 'node:http';
import type { Violation } from '@gw/contract';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { HostName } from '../http/operation';
import { UNKNOWN_OPERATION } from './operation-names';

/** The `code` label of a success (and of answers without an envelope: /healthz, /metrics, a preflight). */
const SUCCESS_CODE = '0000';

/** Seconds, for answers and appends that take from about half a millisecond to a couple of seconds. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2];

const OPERATION = Symbol('gw.metrics.operation');
const CODE = Symbol('gw.metrics.code');
type Tagged = ServerResponse & { [OPERATION]?: string; [CODE]?: string };

/** Names the operation a request reached, as soon as it is routed (see operation-names.ts). */
export function tagOperation(res: ServerResponse, operation: string): void {
  (res as Tagged)[OPERATION] = operation;
}

/** The contract code a failure is answered with: its first violation's (an answer may carry several;
 * one label value per answer keeps the series few). Untagged answers count as `0000`. */
export function tagFailure(res: ServerResponse, violations: readonly Violation[]): void {
  if (violations.length > 0) (res as Tagged)[CODE] = violations[0].code;
}

type RequestLabel = 'host' | 'operation' | 'status' | 'code';

/** One series of the request counter: counted in a plain number, handed to prom-client at a scrape. */
interface Counted {
  child: Counter.Internal;
  pending: number;
}

/**
 * Requests by host, operation, HTTP status and contract code, and their latency by host and
 * operation, recorded as each answer finishes. Every label takes few values (three hosts, the
 * operations of the route tables, the contract's codes, the statuses the API answers with), so
 * the series are bound once and reused. A request costs two map lookups, an increment of a plain
 * number (moved into the counter at each scrape: prom-client's own `inc` costs about as much as
 * the histogram's `observe`) and one histogram observation.
 */
export class RequestMetrics {
  private readonly requests: Counter<RequestLabel>;
  private readonly duration: Histogram<'host' | 'operation'>;
  private readonly counted = new Map<string, Counted>();
  private readonly timed = new Map<string, Histogram.Internal<'host' | 'operation'>>();

  constructor(registry: Registry) {
    const counted = this.counted;
    this.requests = new Counter({
      name: 'gw_api_requests_total',
      help: 'Answered requests by host, operation (the contract operation; `unknown` when no route matched), HTTP status and contract code (0000: success).',
      labelNames: ['host', 'operation', 'status', 'code'],
      registers: [registry],
      collect() {
        for (const series of counted.values()) {
          if (series.pending === 0) continue;
          series.child.inc(series.pending);
          series.pending = 0;
        }
      },
    });
    this.duration = new Histogram({
      name: 'gw_api_request_duration_seconds',
      help: 'Time from receiving a request to finishing its answer, by host and operation.',
      labelNames: ['host', 'operation'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** Records an answer that finished; `startedNs` is `process.hrtime.bigint()` at its arrival. */
  finished(host: HostName, res: ServerResponse, startedNs: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
    const tagged = res as Tagged;
    const operation = tagged[OPERATION] ?? UNKNOWN_OPERATION;
    const code = tagged[CODE] ?? SUCCESS_CODE;
    const timedKey = `${host} ${operation}`;
    let timer = this.timed.get(timedKey);
    if (!timer) {
      timer = this.duration.labels({ host, operation });
      this.timed.set(timedKey, timer);
    }
    timer.observe(seconds);
    const status = res.statusCode;
    const countedKey = `${timedKey} ${status} ${code}`;
    let series = this.counted.get(countedKey);
    if (!series) {
      series = { child: this.requests.labels({ host, operation, status: String(status), code }), pending: 0 };
      this.counted.set(countedKey, series);
    }
    series.pending += 1;
  }
}
