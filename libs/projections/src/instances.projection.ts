import { evolveInstance, initialInstanceState, INSTANCE_STREAM_PREFIX, type InstanceEvent, type InstanceState } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX, type DeliveryAttemptFailed, type NotificationDelivered } from '@gw/domain-notifications';
import type { InstanceRow } from './read-model.types';

/** Streams whose events the read models are built from: instances, and delivery outcomes for
 * getWebhookLogs. */
export const PROJECTED_STREAM_PREFIXES = [INSTANCE_STREAM_PREFIX, NOTIFICATIONS_STREAM_PREFIX] as const;

// A record rather than a list, so that a new instance event type fails the build until it is named here.
const INSTANCE_TYPES: Record<InstanceEvent['type'], true> = {
  InstanceCreated: true,
  InstanceRenewed: true,
  SigningSecretIssued: true,
  WebhookSet: true,
  WebhookCleared: true,
  WebhookDisabledByReceiver: true,
};

/** Delivery outcomes shown by getWebhookLogs. */
export const DELIVERY_ATTEMPT_TYPES: ReadonlyArray<DeliveryAttemptFailed['type'] | NotificationDelivered['type']> = [
  'DeliveryAttemptFailed',
  'NotificationDelivered',
];

/** Event types the read models read. The rest (notably NotificationCreated, whose bodies are most of
 * the log) is left to the store to skip, so it is neither returned nor decoded. */
export const PROJECTED_EVENT_TYPES: readonly string[] = [...Object.keys(INSTANCE_TYPES), ...DELIVERY_ATTEMPT_TYPES];

/** Bumped whenever the projection's output changes, so stored read models are rebuilt on start. */
export const PROJECTION_VERSION = 2;

/**
 * The instance row after `event`, folded with the domain's own `evolve` so that the read model and
 * the write side cannot drift apart. An event at or below the row's revision was applied already and
 * leaves the row unchanged, so applying an event twice is harmless.
 */
export function projectInstance(row: InstanceRow | undefined, event: InstanceEvent, revision: bigint): InstanceRow | undefined {
  if (row && revision <= row.revision) return row;
  const before: InstanceState = row ? { status: 'created', ...withoutRevision(row) } : initialInstanceState();
  const after = evolveInstance(before, event);
  if (after.status !== 'created') return undefined;
  const { status: _status, ...fields } = after;
  return { ...fields, revision };
}

function withoutRevision(row: InstanceRow): Omit<InstanceRow, 'revision'> {
  const { revision: _revision, ...fields } = row;
  return fields;
}
