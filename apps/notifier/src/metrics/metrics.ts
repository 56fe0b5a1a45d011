import { Injectable } from '@nestjs/common';

type Labels = Record<string, string>;

const key = (labels: Labels) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
    .join(',');

/** A monotonically increasing count, optionally split by labels. */
class Counter {
  private readonly values = new Map<string, number>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = key(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    if (this.values.size === 0) lines.push(`${this.name} 0`);
    for (const [k, v] of this.values) lines.push(`${this.name}${k ? `{${k}}` : ''} ${v}`);
    return lines;
  }
}

/** Attempt latency in seconds, with cumulative buckets as Prometheus expects. */
class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(readonly name: string, readonly help: string, private readonly buckets: number[]) {
    this.counts = buckets.map(() => 0);
  }
  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    this.buckets.forEach((le, i) => {
      if (value <= le) this.counts[i] += 1;
    });
  }
  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} histogram`,
      ...this.buckets.map((le, i) => `${this.name}_bucket{le="${le}"} ${this.counts[i]}`),
      `${this.name}_bucket{le="+Inf"} ${this.count}`,
      `${this.name}_sum ${this.sum}`,
      `${this.name}_count ${this.count}`,
    ];
  }
}

/** The notifier's metrics in the Prometheus text format, served on NOTIFIER_PORT at /metrics. */
@Injectable()
export class NotifierMetrics {
  readonly created = new Counter('notifier_notifications_created_total', 'Notifications created from recorded messages and acks.');
  readonly items = new Counter('notifier_notified_items_total', 'Messages and acks carried by the notifications created (several per notification when batched).');
  readonly delivered = new Counter('notifier_notifications_delivered_total', 'Notifications a receiver accepted with a 2xx answer.');
  readonly failedAttempts = new Counter('notifier_attempts_failed_total', 'Delivery attempts that failed, by reason.');
  readonly deadLettered = new Counter('notifier_notifications_dead_lettered_total', 'Notifications whose last attempt failed.');
  readonly cancelled = new Counter('notifier_notifications_cancelled_total', 'Notifications cancelled because delivery was switched off or the instance expired.');
  readonly snapshots = new Counter('notifier_snapshots_total', 'Snapshots of the notifier state written to the store.');
  readonly latency = new Histogram('notifier_attempt_duration_seconds', 'Time from sending a request to its answer or failure.', [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15,
  ]);

  render(gauges: { pending: number; inFlight: number; lagEvents: bigint; ready: boolean; replayedAtStart: number }): string {
    const gauge = (name: string, help: string, value: number | bigint) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`];
    return `${[
      ...this.created.render(),
      ...this.items.render(),
      ...this.delivered.render(),
      ...this.failedAttempts.render(),
      ...this.deadLettered.render(),
      ...this.cancelled.render(),
      ...this.snapshots.render(),
      ...this.latency.render(),
      ...gauge('notifier_pending_notifications', 'Notifications waiting for an attempt (due or scheduled).', gauges.pending),
      ...gauge('notifier_requests_in_flight', 'Requests to receivers in flight now.', gauges.inFlight),
      ...gauge('notifier_log_lag_events', 'Events between the log head and what the notifier has processed.', gauges.lagEvents),
      ...gauge('notifier_ready', '1 once the notifier has caught up with the log after start.', gauges.ready ? 1 : 0),
      ...gauge('notifier_start_replayed_events', 'Events the start replayed after the snapshot it loaded (the whole log when there was none).', gauges.replayedAtStart),
    ].join('\n')}\n`;
  }
}
