import type { ConnectionState } from './connection-state';
import type { NotificationKind } from './notification-kinds';
import type { SignatureScheme } from './receiver-options';

/** Events of one instance's stream (`instance-{instanceId}`). Tokens are recorded only as hashes. */
export type InstanceCreated = {
  type: 'InstanceCreated';
  data: {
    instanceId: string;
    accountId: string;
    packageId: string;
    tokenHash: string;
    createdAt: string;
    expiresAt: string;
  };
};

/** The instance was renewed: it now expires at `expiresAt`. */
export type InstanceRenewed = {
  type: 'InstanceRenewed';
  data: { instanceId: string; packageId: string; renewedAt: string; expiresAt: string };
};

/** A URL was registered, or the kinds notified for it changed; delivery is on from now. `events`
 * is absent in events written before kinds existed: the default set. */
export type WebhookSet = {
  type: 'WebhookSet';
  data: { instanceId: string; url: string; setAt: string; events?: NotificationKind[] };
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

/** A new signing secret replaced the current one (or is the first, `previousValidUntil` null). The
 * previous one still signs, second, until `previousValidUntil`. Recorded only encrypted. */
export type SigningSecretRotated = {
  type: 'SigningSecretRotated';
  data: { instanceId: string; encryptedSecret: string; rotatedAt: string; previousValidUntil: string | null };
};

/** The receiver's own headers were set (docs/api.md section 12), or removed (`names` empty, the
 * rest null). The values are recorded only sealed; `headersHash` is a keyed fingerprint of them. */
export type WebhookHeadersSet = {
  type: 'WebhookHeadersSet';
  data: {
    instanceId: string;
    names: string[];
    sealedHeaders: string | null;
    headersHash: string | null;
    setAt: string;
  };
};

/** The owner chose how notifications are signed from now on (section 12). */
export type SignatureSchemeChosen = {
  type: 'SignatureSchemeChosen';
  data: { instanceId: string; scheme: SignatureScheme; chosenAt: string };
};

/** The instance's first Ed25519 key pair, made when `ed25519` was first chosen. The private key is
 * recorded only sealed; the public key is public. */
export type SigningKeyPairIssued = {
  type: 'SigningKeyPairIssued';
  data: { instanceId: string; sealedPrivateKey: string; publicKey: string; issuedAt: string };
};

/** A new key pair replaced the current one (rotateSigningSecret under `ed25519`); the previous one
 * still signs, second, until `previousValidUntil` (null: there was none). */
export type SigningKeyPairRotated = {
  type: 'SigningKeyPairRotated';
  data: {
    instanceId: string;
    sealedPrivateKey: string;
    publicKey: string;
    rotatedAt: string;
    previousValidUntil: string | null;
  };
};

/** Attempts to `url` kept failing, with no success, from `failingSince` for WEBHOOK_DISABLE_AFTER_HOURS:
 * delivery is off (`disabledReason` "failing") until a URL is registered again. */
export type WebhookDisabledForFailing = {
  type: 'WebhookDisabledForFailing';
  data: { instanceId: string; url: string; failingSince: string; disabledAt: string };
};

/** A new instance token replaced the old one, which is refused from now; only its hash is recorded. */
export type InstanceTokenReset = {
  type: 'InstanceTokenReset';
  data: { instanceId: string; tokenHash: string; resetAt: string };
};

/** The account holder deleted the instance: its token is refused everywhere, nothing more is
 * notified, and what was pending is cancelled. The history stays. */
export type InstanceDeleted = {
  type: 'InstanceDeleted';
  data: { instanceId: string; deletedAt: string };
};

/** The account holder set the instance's label (docs/api.md 13.1), or removed it (`label` null). */
export type InstanceLabelSet = {
  type: 'InstanceLabelSet';
  data: { instanceId: string; label: string | null; setAt: string };
};

/** The gateway reported a new connection state (docs/api.md 13.2); `since` is when it began, as the
 * gateway said (its `time`), and `reportedAt` when it was recorded. */
export type InstanceStateReported = {
  type: 'InstanceStateReported';
  data: { instanceId: string; state: ConnectionState; since: string; reportedAt: string };
};

/** The events of an instance's stream. */
export type InstanceEvent =
  | InstanceCreated
  | InstanceRenewed
  | SigningSecretIssued
  | SigningSecretRotated
  | WebhookSet
  | WebhookCleared
  | WebhookDisabledByReceiver
  | InstanceTokenReset
  | InstanceDeleted
  | WebhookHeadersSet
  | SignatureSchemeChosen
  | SigningKeyPairIssued
  | SigningKeyPairRotated
  | WebhookDisabledForFailing
  | InstanceLabelSet
  | InstanceStateReported;

const INSTANCE_EVENT_TYPES: ReadonlySet<string> = new Set<InstanceEvent['type']>([
  'InstanceCreated',
  'InstanceRenewed',
  'SigningSecretIssued',
  'SigningSecretRotated',
  'WebhookSet',
  'WebhookCleared',
  'WebhookDisabledByReceiver',
  'InstanceTokenReset',
  'InstanceDeleted',
  'WebhookHeadersSet',
  'SignatureSchemeChosen',
  'SigningKeyPairIssued',
  'SigningKeyPairRotated',
  'WebhookDisabledForFailing',
  'InstanceLabelSet',
  'InstanceStateReported',
]);

/** True for the event types this version knows; newer types are skipped by older readers. */
export function isInstanceEvent(event: { type: string }): event is InstanceEvent {
  return INSTANCE_EVENT_TYPES.has(event.type);
}

/** What every instance stream's name starts with. */
export const INSTANCE_STREAM_PREFIX = 'instance-';

/** `instance-{instanceId}`: the stream of one instance. */
export function instanceStreamName(instanceId: string): string {
  return `${INSTANCE_STREAM_PREFIX}${instanceId}`;
}
