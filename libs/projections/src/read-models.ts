import { INBOX_STREAM_PREFIX } from '@gw/domain-inbox';
import { INSTANCE_STREAM_PREFIX } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX } from '@gw/domain-notifications';
import { INSTANCE_ROW_EVENT_TYPES, type InstancesQuery } from './instances.read-model';
import { USAGE_EVENT_TYPES, USAGE_TYPES_WITHOUT_DATA, type UsageQuery } from './usage.read-model';
import { DELIVERY_ATTEMPT_TYPES, type WebhookLogsQuery } from './webhook-logs.read-model';

/** The API's read models, as its queries see them. */
export type ReadModels = InstancesQuery & WebhookLogsQuery & UsageQuery;

/** Streams whose events the read models are built from: instances, delivery outcomes for
 * getWebhookLogs and getUsage, and recorded traffic for getUsage. */
export const PROJECTED_STREAM_PREFIXES = [
  INSTANCE_STREAM_PREFIX,
  NOTIFICATIONS_STREAM_PREFIX,
  INBOX_STREAM_PREFIX,
] as const;

/** Event types the read models read. The rest (notably NotificationCreated, whose bodies are most of
 * the log) is left to the store to skip, so it is neither returned nor decoded. */
export const PROJECTED_EVENT_TYPES: readonly string[] = [
  ...new Set([...INSTANCE_ROW_EVENT_TYPES, ...DELIVERY_ATTEMPT_TYPES, ...USAGE_EVENT_TYPES]),
];

/** Event types the read models read without their data (see USAGE_TYPES_WITHOUT_DATA). */
export const PROJECTED_TYPES_WITHOUT_DATA: readonly string[] = USAGE_TYPES_WITHOUT_DATA;

/** Bumped whenever the projection's output changes, so stored read models are rebuilt on start. */
export const PROJECTION_VERSION = 8;
