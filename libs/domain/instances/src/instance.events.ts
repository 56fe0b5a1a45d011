/** Events of one instance's stream (`instance-{instanceId}`). Tokens are recorded only as hashes. */
export type InstanceCreated = {
  type: 'InstanceCreated';
  data: {
    instanceId: string;
    accountEmail: string;
    packageId: string;
    tokenHash: string;
    createdAt: string;
    expiresAt: string;
  };
};

export type InstanceRenewed = {
  type: 'InstanceRenewed';
  data: { instanceId: string; packageId: string; renewedAt: string; expiresAt: string };
};

/** A URL was registered; delivery is on from now. */
export type WebhookSet = {
  type: 'WebhookSet';
  data: { instanceId: string; url: string; setAt: string };
};

/** The owner registered an empty URL; delivery is off. */
export type WebhookCleared = {
  type: 'WebhookCleared';
  data: { instanceId: string; clearedAt: string };
};

/** The receiver answered 410 Gone; delivery is off until a URL is registered again. */
export type WebhookDisabledByReceiver = {
  type: 'WebhookDisabledByReceiver';
  data: { instanceId: string; url: string; reason: string; disabledAt: string };
};

/** The instance's webhook signing secret was created, with its first registration. The secret is
 * recorded only encrypted (opaque to the domain); it never changes afterwards. */
export type SigningSecretIssued = {
  type: 'SigningSecretIssued';
  data: { instanceId: string; encryptedSecret: string; issuedAt: string };
};

export type InstanceEvent =
  | InstanceCreated
  | InstanceRenewed
  | SigningSecretIssued
  | WebhookSet
  | WebhookCleared
  | WebhookDisabledByReceiver;

const INSTANCE_EVENT_TYPES: ReadonlySet<string> = new Set<InstanceEvent['type']>([
  'InstanceCreated',
  'InstanceRenewed',
  'SigningSecretIssued',
  'WebhookSet',
  'WebhookCleared',
  'WebhookDisabledByReceiver',
]);

/** True for the event types this version knows; newer types are skipped by older readers. */
export function isInstanceEvent(event: { type: string }): event is InstanceEvent {
  return INSTANCE_EVENT_TYPES.has(event.type);
}

export const INSTANCE_STREAM_PREFIX = 'instance-';

export function instanceStreamName(instanceId: string): string {
  return `${INSTANCE_STREAM_PREFIX}${instanceId}`;
}
