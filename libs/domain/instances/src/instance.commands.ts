import type { ConnectionState } from './connection-state';
import type { NotificationKind } from './notification-kinds';
import type { PackageDefinition } from './package-catalogue';
import type { ReceiverHeaders, SignatureScheme, SigningKeyPair } from './receiver-options';

/** Create an instance under an account, with a package of the catalogue. */
export type CreateInstance = {
  type: 'CreateInstance';
  data: {
    instanceId: string;
    accountId: string;
    packageId: string;
    packages: readonly PackageDefinition[];
    tokenHash: string;
    /** The owner's label (docs/api.md 13.1), if given; checked for form by the adapter. */
    label?: string;
    now: string;
  };
};

/** Renew an instance with a package: it expires the package's duration after the later of now and its expiry. */
export type RenewInstance = {
  type: 'RenewInstance';
  data: { accountId: string; packageId: string; packages: readonly PackageDefinition[]; now: string };
};

/**
 * Registers `url`, or switches delivery off when it is empty. `urlRefusal` carries the adapter's
 * verdict on where the URL's host points (a non-public address), so that the domain reports it beside
 * its own refusals. `newSigningSecret` is a freshly drawn, encrypted secret; it is needed (and used)
 * only by a first registration, when the instance has none yet (see `needsNewSigningSecret`).
 */
export type ChangeWebhook = {
  type: 'ChangeWebhook';
  /** `events`: the kinds to notify (absent: the default set); ignored when `url` is empty, as are
   * the receiver's options (section 12): `headers` and `signatureScheme`, absent to keep them.
   * `newSigningKey` is a freshly drawn key pair, needed only when `ed25519` is chosen for an
   * instance without one (see `needsNewSigningKey`). */
  data: {
    url: string;
    urlRefusal?: string;
    newSigningSecret?: string;
    events?: readonly NotificationKind[];
    headers?: ReceiverHeaders;
    signatureScheme?: SignatureScheme;
    newSigningKey?: SigningKeyPair;
    now: string;
  };
};

/** The account holder deletes the instance (docs/api.md 8.1). */
export type DeleteInstance = {
  type: 'DeleteInstance';
  data: { accountId: string; now: string };
};

/** The account holder replaces the instance token (8.2); `tokenHash` is the new token's. */
export type ResetInstanceToken = {
  type: 'ResetInstanceToken';
  data: { accountId: string; tokenHash: string; now: string };
};

/** The owner replaces the signing secret (8.5), or under `ed25519` the key pair (section 12): the
 * new one is drawn and sealed by the caller (see `rotatesKeyPair`); the previous one keeps signing
 * for `overlapHours`. */
export type RotateSigningSecret = {
  type: 'RotateSigningSecret';
  data: { newSigningSecret?: string; newSigningKey?: SigningKeyPair; overlapHours: number; now: string };
};

/**
 * Checks a test notification may be sent now (docs/api.md 8.6): to `url` when given (`urlRefusal` is
 * the adapter's verdict on where its host points, as for ChangeWebhook), else to the registered URL,
 * which needs delivery on. An instance without a signing secret yet (only possible with `url`, before
 * any registration) gets `newSigningSecret` as its first, so that the test is signed with the secret
 * the receiver will keep; that is the one change a test makes.
 */
export type PrepareTestNotification = {
  type: 'PrepareTestNotification';
  data: { url: string; urlRefusal?: string; newSigningSecret?: string; now: string };
};

/** The receiver answered 410 Gone to a delivery for `url`. */
export type DisableWebhookForReceiver = {
  type: 'DisableWebhookForReceiver';
  data: { url: string; reason: string; now: string };
};

/** Attempts to `url` have failed, with no success, since `failingSince`, for longer than the
 * operator allows (WEBHOOK_DISABLE_AFTER_HOURS, section 12). */
export type DisableWebhookForFailing = {
  type: 'DisableWebhookForFailing';
  data: { url: string; failingSince: string; now: string };
};

/** The account holder sets the label, or removes it with an empty one (docs/api.md 13.1). */
export type SetInstanceLabel = {
  type: 'SetInstanceLabel';
  data: { accountId: string; label: string; now: string };
};

/** The gateway reports the connection state (13.2); `since` is the ISO form of its `time`. */
export type ReportInstanceState = {
  type: 'ReportInstanceState';
  data: { state: ConnectionState; since: string; now: string };
};

/** What an instance's stream is asked to do. */
export type InstanceCommand =
  | CreateInstance
  | RenewInstance
  | ChangeWebhook
  | DisableWebhookForReceiver
  | DisableWebhookForFailing
  | DeleteInstance
  | ResetInstanceToken
  | RotateSigningSecret
  | PrepareTestNotification
  | SetInstanceLabel
  | ReportInstanceState;
