import { Injectable } from '@nestjs/common';
import type { NotificationEvent } from '@gw/domain-notifications';
import type { AttemptResult } from '@gw/webhook-delivery';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the notifier knows only when asked: read at each scrape. */
export interface NotifierGauges {
  pending: number;
  inFlight: number;
  lagEvents: bigint;
  ready: boolean;
  replayedAtStart: number;
}

/**
 * The notifier's metrics in the Prometheus text format, served on NOTIFIER_PORT at /metrics: what
 * it created, delivered, failed, dead-lettered and cancelled, attempt latency, snapshots, the state
 * it is in, and the process's own (memory, event loop, GC) as the API serves them.
 */
@Injectable()
export class NotifierMetrics {
  private readonly registry = new Registry();
  private readonly counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers: [this.registry] });
  readonly created = this.counter(
    'notifier_notifications_created_total',
    'Notifications created from recorded messages and acks.',
  );
  readonly items = this.counter(
    'notifier_notified_items_total',
    'Messages and acks carried by the notifications created (several per notification when batched).',
  );
  readonly delivered = this.counter(
    'notifier_notifications_delivered_total',
    'Notifications a receiver accepted with a 2xx answer.',
  );
  readonly failedAttempts = this.counter(
    'notifier_attempts_failed_total',
    'Delivery attempts that failed, by reason.',
    ['reason'],
  );
  readonly deadLettered = this.counter(
    'notifier_notifications_dead_lettered_total',
    'Notifications whose last attempt failed.',
  );
  readonly cancelled = this.counter(
    'notifier_notifications_cancelled_total',
    'Notifications cancelled because delivery was switched off or the instance expired.',
  );
  readonly snapshots = this.counter(
    'notifier_snapshots_total',
    'Snapshots of the notifier state written to the store and named by a checkpoint.',
  );
  readonly latency = new Histogram({
    name: 'notifier_attempt_duration_seconds',
    help: 'Time from sending a request to its answer or failure.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [this.registry],
  });
  private readonly gauges = {
    pending: this.gauge('notifier_pending_notifications', 'Notifications waiting for an attempt (due or scheduled).'),
    inFlight: this.gauge('notifier_requests_in_flight', 'Requests to receivers in flight now.'),
    lagEvents: this.gauge(
      'notifier_log_lag_events',
      'Events between the log head and what the notifier has processed.',
    ),
    ready: this.gauge('notifier_ready', '1 once the notifier has caught up with the log after start.'),
    replayedAtStart: this.gauge(
      'notifier_start_replayed_events',
      'Events the start replayed after the snapshot it loaded (the whole log when there was none).',
    ),
  };

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The text of a scrape, with the gauges as given now. */
  /** Counts what an attempt recorded: delivered, failed (by status, or by the error's kind when no
   * answer came), dead-lettered, cancelled. */
  countOutcomes(events: readonly NotificationEvent[], result: AttemptResult): void {
    for (const event of events) {
      if (event.type === 'NotificationDelivered') this.delivered.inc();
      if (event.type === 'DeliveryAttemptFailed')
        this.failedAttempts.inc({ reason: result.status ? String(result.status) : result.error.split(':')[0] });
      if (event.type === 'NotificationDeadLettered') this.deadLettered.inc();
      if (event.type === 'NotificationCancelled') this.cancelled.inc();
    }
  }

  render(now: NotifierGauges): Promise<string> {
    this.gauges.pending.set(now.pending);
    this.gauges.inFlight.set(now.inFlight);
    this.gauges.lagEvents.set(Number(now.lagEvents));
    this.gauges.ready.set(now.ready ? 1 : 0);
    this.gauges.replayedAtStart.set(now.replayedAtStart);
    return this.registry.metrics();
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }
}
