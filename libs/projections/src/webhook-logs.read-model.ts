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

/** An instance's endpoint health as getWebhookStatus shows it (docs/api.md section 12). */
export interface EndpointHealth {
  consecutiveFailures: number;
  failingSince: string | null;
  lastSuccessAt: string | null;
}

/** What the API asks of the webhook-logs read model (getWebhookLogs, and getWebhookStatus' health). */
export interface WebhookLogsQuery {
  /** The latest delivery attempts of an instance, newest first, at most `limit` of them. */
  latestAttempts(instanceId: string, limit: number): DeliveryAttemptRow[];
  /** How the instance's notifications have fared lately; no attempt yet: 0 failures, nulls. */
  endpointHealth(instanceId: string): EndpointHealth;
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
