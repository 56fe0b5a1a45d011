import type { DeliveryAttemptFailed, NotificationDelivered, NotificationEvent } from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';

/** One delivery attempt as getWebhookLogs shows it (docs/api.md 4.8). */
export interface DeliveryAttemptRow {
  at: string;
  sequence: number;
  webhookId: string;
  status: number;
  error: string;
  durationMs: number;
  nextAttemptAt: string | null;
}

/** A delivery attempt as the log records it: the row, its instance, and the log position that
 * orders it (and makes recording it twice harmless). */
export type RecordedDeliveryAttempt = DeliveryAttemptRow & { instanceId: string; position: bigint };

/** What the API asks of the webhook-logs read model (getWebhookLogs). */
export interface WebhookLogsQuery {
  /** The latest delivery attempts of an instance, newest first, at most `limit` of them. */
  latestAttempts(instanceId: string, limit: number): DeliveryAttemptRow[];
}

/** Delivery outcomes shown by getWebhookLogs. */
export const DELIVERY_ATTEMPT_TYPES: ReadonlyArray<DeliveryAttemptFailed['type'] | NotificationDelivered['type']> = [
  'DeliveryAttemptFailed',
  'NotificationDelivered',
];

/** The delivery attempt an event records, if it records one. */
export function deliveryAttemptOf(event: RecordedEvent & NotificationEvent): RecordedDeliveryAttempt | undefined {
  if (event.type === 'DeliveryAttemptFailed') {
    const { instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt } = event.data;
    return { position: event.position, instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt };
  }
  if (event.type === 'NotificationDelivered') {
    const { instanceId, webhookId, sequence, at, status, durationMs } = event.data;
    return { position: event.position, instanceId, webhookId, sequence, at, status, error: '', durationMs, nextAttemptAt: null };
  }
  return undefined;
}
