import type {
  DeliveryAttemptFailed,
  NotificationDelivered,
  NotificationEvent,
  TestNotificationAttempted,
} from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';

/** One delivery attempt as getWebhookLogs shows it (docs/api.md 4.8); a test notification's
 * (8.6) has no sequence and `test` true. */
export interface DeliveryAttemptRow {
  at: string;
  sequence: number | null;
  webhookId: string;
  status: number;
  error: string;
  durationMs: number;
  nextAttemptAt: string | null;
  test: boolean;
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
export const DELIVERY_ATTEMPT_TYPES: ReadonlyArray<
  DeliveryAttemptFailed['type'] | NotificationDelivered['type'] | TestNotificationAttempted['type']
> = ['DeliveryAttemptFailed', 'NotificationDelivered', 'TestNotificationAttempted'];

/** The delivery attempt an event records, if it records one. */
export function deliveryAttemptOf(event: RecordedEvent & NotificationEvent): RecordedDeliveryAttempt | undefined {
  if (event.type === 'DeliveryAttemptFailed') {
    const { instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt } = event.data;
    return {
      position: event.position,
      instanceId,
      webhookId,
      sequence,
      at,
      status,
      error,
      durationMs,
      nextAttemptAt,
      test: false,
    };
  }
  if (event.type === 'NotificationDelivered') {
    const { instanceId, webhookId, sequence, at, status, durationMs } = event.data;
    return {
      position: event.position,
      instanceId,
      webhookId,
      sequence,
      at,
      status,
      error: '',
      durationMs,
      nextAttemptAt: null,
      test: false,
    };
  }
  if (event.type === 'TestNotificationAttempted') {
    const { instanceId, webhookId, at, status, error, durationMs } = event.data;
    return {
      position: event.position,
      instanceId,
      webhookId,
      sequence: null,
      at,
      status,
      error,
      durationMs,
      nextAttemptAt: null,
      test: true,
    };
  }
  return undefined;
}
