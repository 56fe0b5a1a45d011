import { assertNever, isBefore } from '@gw/domain-core';
import type { ConnectionState } from './connection-state';
import type { InstanceEvent } from './instance.events';
import { canonicalKinds, DEFAULT_NOTIFICATION_KINDS, type NotificationKind } from './notification-kinds';
import {
  DEFAULT_SIGNATURE_SCHEME,
  FAILING_REASON,
  NO_HEADERS,
  type ReceiverHeaders,
  type SignatureScheme,
  type SigningKeyPair,
} from './receiver-options';

/** An instance as its stream folds: none yet, created (with its package, webhook and secrets), or deleted. */
export type InstanceState =
  | { status: 'none' }
  | {
      status: 'created';
      instanceId: string;
      accountId: string;
      packageId: string;
      tokenHash: string;
      createdAt: string;
      expiresAt: string;
      /** The registered URL, or '' when none is registered. */
      webhookUrl: string;
      /** Whether the owner (and the receiver) want delivery; expiry is applied on top. */
      webhookOn: boolean;
      disabledReason: string | null;
      /** The webhook signing secret, encrypted; null until the first registration (or rotation). */
      encryptedSigningSecret: string | null;
      /** The secret a rotation replaced, which still signs (second) until `validUntil`. */
      previousSigningSecret: { encrypted: string; validUntil: string } | null;
      /** The notification kinds chosen, in canonical order (kept while no URL is registered). */
      events: NotificationKind[];
      /** The receiver's options (docs/api.md section 12), kept while no URL is registered. */
      signatureScheme: SignatureScheme;
      webhookHeaders: ReceiverHeaders;
      /** The Ed25519 key pair; null until `ed25519` is first chosen. */
      signingKey: SigningKeyPair | null;
      /** The private key (sealed) a rotation replaced, which still signs (second) until `validUntil`. */
      previousSigningKey: { sealed: string; validUntil: string } | null;
      /** The owner's label (docs/api.md 13.1), null when none. */
      label: string | null;
      /** The connection state last reported by the gateway and since when (13.2); null before any. */
      connectionState: ConnectionState | null;
      connectionSince: string | null;
    }
  | { status: 'deleted'; instanceId: string; accountId: string; deletedAt: string };

/** The state of an instance that exists and was not deleted. */
export type CreatedInstance = Extract<InstanceState, { status: 'created' }>;

/** The state before the stream's first event. */
export const initialInstanceState = (): InstanceState => ({ status: 'none' });

/** The state after one more event of the instance's stream. */
export function evolveInstance(state: InstanceState, event: InstanceEvent): InstanceState {
  switch (event.type) {
    case 'InstanceCreated':
      return {
        status: 'created',
        ...event.data,
        webhookUrl: '',
        webhookOn: false,
        disabledReason: null,
        encryptedSigningSecret: null,
        previousSigningSecret: null,
        events: [...DEFAULT_NOTIFICATION_KINDS],
        signatureScheme: DEFAULT_SIGNATURE_SCHEME,
        webhookHeaders: NO_HEADERS,
        signingKey: null,
        previousSigningKey: null,
        label: null,
        connectionState: null,
        connectionSince: null,
      };
    case 'InstanceRenewed':
      if (state.status !== 'created') return state;
      return { ...state, packageId: event.data.packageId, expiresAt: event.data.expiresAt };
    case 'SigningSecretIssued':
      if (state.status !== 'created') return state;
      return { ...state, encryptedSigningSecret: event.data.encryptedSecret };
    case 'SigningSecretRotated':
      if (state.status !== 'created') return state;
      return {
        ...state,
        encryptedSigningSecret: event.data.encryptedSecret,
        previousSigningSecret:
          state.encryptedSigningSecret !== null && event.data.previousValidUntil !== null
            ? { encrypted: state.encryptedSigningSecret, validUntil: event.data.previousValidUntil }
            : null,
      };
    case 'WebhookSet':
      if (state.status !== 'created') return state;
      return {
        ...state,
        webhookUrl: event.data.url,
        webhookOn: true,
        disabledReason: null,
        events: canonicalKinds(event.data.events ?? DEFAULT_NOTIFICATION_KINDS),
      };
    case 'WebhookCleared':
      if (state.status !== 'created') return state;
      return { ...state, webhookUrl: '', webhookOn: false, disabledReason: null };
    case 'WebhookDisabledByReceiver':
      if (state.status !== 'created') return state;
      return { ...state, webhookOn: false, disabledReason: event.data.reason };
    case 'WebhookDisabledForFailing':
      if (state.status !== 'created') return state;
      return { ...state, webhookOn: false, disabledReason: FAILING_REASON };
    case 'WebhookHeadersSet':
      if (state.status !== 'created') return state;
      return {
        ...state,
        webhookHeaders: {
          names: event.data.names,
          sealed: event.data.sealedHeaders,
          fingerprint: event.data.headersHash,
        },
      };
    case 'SignatureSchemeChosen':
      if (state.status !== 'created') return state;
      return { ...state, signatureScheme: event.data.scheme };
    case 'SigningKeyPairIssued':
      if (state.status !== 'created') return state;
      return {
        ...state,
        signingKey: { sealedPrivateKey: event.data.sealedPrivateKey, publicKey: event.data.publicKey },
      };
    case 'SigningKeyPairRotated':
      if (state.status !== 'created') return state;
      return {
        ...state,
        signingKey: { sealedPrivateKey: event.data.sealedPrivateKey, publicKey: event.data.publicKey },
        previousSigningKey:
          state.signingKey !== null && event.data.previousValidUntil !== null
            ? { sealed: state.signingKey.sealedPrivateKey, validUntil: event.data.previousValidUntil }
            : null,
      };
    case 'InstanceTokenReset':
      if (state.status !== 'created') return state;
      return { ...state, tokenHash: event.data.tokenHash };
    case 'InstanceDeleted':
      if (state.status !== 'created') return state;
      return {
        status: 'deleted',
        instanceId: state.instanceId,
        accountId: state.accountId,
        deletedAt: event.data.deletedAt,
      };
    case 'InstanceLabelSet':
      if (state.status !== 'created') return state;
      return { ...state, label: event.data.label };
    case 'InstanceStateReported':
      if (state.status !== 'created') return state;
      return { ...state, connectionState: event.data.state, connectionSince: event.data.since };
    default:
      return assertNever(event);
  }
}

/** `active` while now < expiresAt, `expired` afterwards (docs/api.md section 4). */
export function instanceStatus(expiresAt: string, now: string): 'active' | 'expired' {
  return isBefore(now, expiresAt) ? 'active' : 'expired';
}

/** Delivery is effectively on only while a URL is registered, wanted, and the instance is active.
 * (Only the fields it reads: a read model's row is passed as it is, without copying it.) */
export function deliveryEnabled(
  state: Pick<CreatedInstance, 'webhookOn' | 'webhookUrl' | 'expiresAt'>,
  now: string,
): boolean {
  return state.webhookOn && state.webhookUrl !== '' && instanceStatus(state.expiresAt, now) === 'active';
}

/** The sealed keys a notification is signed with at `now`, under the scheme in force (section 12):
 * the current one, then the one a rotation replaced while its overlap lasts (docs/api.md 8.5). Empty
 * before the first secret. Under `ed25519` these are private keys, which the signer tells apart. */
export function signingSecretsAt(state: CreatedInstance, now: string): string[] {
  if (state.encryptedSigningSecret === null) return [];
  if (state.signatureScheme === 'ed25519' && state.signingKey !== null) {
    const previousKey = state.previousSigningKey;
    return previousKey && isBefore(now, previousKey.validUntil)
      ? [state.signingKey.sealedPrivateKey, previousKey.sealed]
      : [state.signingKey.sealedPrivateKey];
  }
  const previous = state.previousSigningSecret;
  return previous && isBefore(now, previous.validUntil)
    ? [state.encryptedSigningSecret, previous.encrypted]
    : [state.encryptedSigningSecret];
}
