import { Codes, type Violation } from '@gw/contract';
import { addHours, refuse, refuseIfAny } from '@gw/domain-core';
import type { InstanceEvent } from './instance.events';
import { instanceStatus, type InstanceState } from './instance.state';
import type {
  ChangeWebhook,
  DisableWebhookForFailing,
  DisableWebhookForReceiver,
  RotateSigningSecret,
} from './instance.commands';
import { canonicalKinds, DEFAULT_NOTIFICATION_KINDS, sameKinds } from './notification-kinds';
import { sameHeaders, type SignatureScheme } from './receiver-options';

/**
 * The checks a webhook change and a test share: the instance exists (else 0006 alone, as for a wrong
 * token), is active (0007), and a given URL's host is public (0008, the adapter's verdict).
 */
export function webhookChecks(
  state: InstanceState,
  data: { url: string; urlRefusal?: string; now: string },
): Violation[] {
  if (state.status !== 'created')
    return [{ code: Codes.InstanceAuthFailed, field: 'token', message: 'unknown instanceid or wrong token' }];
  const violations: Violation[] = [];
  if (instanceStatus(state.expiresAt, data.now) === 'expired') {
    violations.push({
      code: Codes.InstanceExpired,
      field: 'instanceid',
      message: 'the instance has expired; renew it first',
    });
  }
  if (data.url !== '' && data.urlRefusal) {
    violations.push({ code: Codes.WebhookUrlRefused, field: 'webhookUrl', message: data.urlRefusal });
  }
  return violations;
}

/**
 * Registers a URL with its kinds and the receiver's options (docs/api.md 4.4, 8.4, section 12), or
 * switches delivery off. Only what differs from the state is recorded, so the same call twice records
 * nothing the second time; an option left out keeps its value. The first registration issues the
 * signing secret, and the first choice of `ed25519` the key pair, before the events that use them.
 */
export function decideChangeWebhook({ data }: ChangeWebhook, state: InstanceState): InstanceEvent[] {
  const violations = webhookChecks(state, data);
  if (state.status !== 'created') return refuse(violations[0]);
  refuseIfAny(violations);
  const instanceId = state.instanceId;

  if (data.url === '') {
    if (state.webhookUrl === '' && !state.webhookOn) return [];
    return [{ type: 'WebhookCleared', data: { instanceId, clearedAt: data.now } }];
  }
  const events = canonicalKinds(data.events ?? DEFAULT_NOTIFICATION_KINDS);
  const headers = data.headers ?? state.webhookHeaders;
  const scheme = data.signatureScheme ?? state.signatureScheme;
  const out: InstanceEvent[] = [];
  if (state.encryptedSigningSecret === null) {
    if (data.newSigningSecret === undefined)
      throw new Error('ChangeWebhook: a first registration needs newSigningSecret');
    out.push({
      type: 'SigningSecretIssued',
      data: { instanceId, encryptedSecret: data.newSigningSecret, issuedAt: data.now },
    });
  }
  if (scheme === 'ed25519' && state.signingKey === null) {
    if (data.newSigningKey === undefined)
      throw new Error('ChangeWebhook: a first choice of ed25519 needs newSigningKey');
    out.push({ type: 'SigningKeyPairIssued', data: { instanceId, ...data.newSigningKey, issuedAt: data.now } });
  }
  if (data.url !== state.webhookUrl || !state.webhookOn || !sameKinds(events, state.events)) {
    out.push({ type: 'WebhookSet', data: { instanceId, url: data.url, setAt: data.now, events } });
  }
  if (!sameHeaders(headers, state.webhookHeaders)) {
    out.push({
      type: 'WebhookHeadersSet',
      data: {
        instanceId,
        names: headers.names,
        sealedHeaders: headers.sealed,
        headersHash: headers.fingerprint,
        setAt: data.now,
      },
    });
  }
  if (scheme !== state.signatureScheme) {
    out.push({ type: 'SignatureSchemeChosen', data: { instanceId, scheme, chosenAt: data.now } });
  }
  return out;
}

/** Whether `ChangeWebhook` to `url` may need a new signing secret: a non-empty URL for an instance
 * that has none yet. Drawing one costs a random draw and an encryption, so callers skip it otherwise. */
export function needsNewSigningSecret(state: InstanceState, url: string): boolean {
  return url !== '' && (state.status !== 'created' || state.encryptedSigningSecret === null);
}

/** Whether `ChangeWebhook` to `url` choosing `scheme` (undefined: kept) needs a new key pair. */
export function needsNewSigningKey(state: InstanceState, url: string, scheme: SignatureScheme | undefined): boolean {
  if (url === '' || state.status !== 'created') return false;
  return (scheme ?? state.signatureScheme) === 'ed25519' && state.signingKey === null;
}

/** Whether `RotateSigningSecret` rotates the key pair (under `ed25519`) rather than the secret. */
export function rotatesKeyPair(state: InstanceState): boolean {
  return state.status === 'created' && state.signatureScheme === 'ed25519' && state.signingKey !== null;
}

export function decideDisable({ data }: DisableWebhookForReceiver, state: InstanceState): InstanceEvent[] {
  // A 410 for a URL that is no longer registered, or already off, changes nothing.
  if (state.status !== 'created' || !state.webhookOn || state.webhookUrl !== data.url) return [];
  return [
    {
      type: 'WebhookDisabledByReceiver',
      data: { instanceId: state.instanceId, url: data.url, reason: data.reason, disabledAt: data.now },
    },
  ];
}

export function decideDisableForFailing({ data }: DisableWebhookForFailing, state: InstanceState): InstanceEvent[] {
  // Failures of a URL that is no longer registered, or delivery already off, change nothing.
  if (state.status !== 'created' || !state.webhookOn || state.webhookUrl !== data.url) return [];
  return [
    {
      type: 'WebhookDisabledForFailing',
      data: { instanceId: state.instanceId, url: data.url, failingSince: data.failingSince, disabledAt: data.now },
    },
  ];
}

export function decideRotate({ data }: RotateSigningSecret, state: InstanceState): InstanceEvent[] {
  if (state.status !== 'created') {
    return refuse({ code: Codes.InstanceAuthFailed, field: 'token', message: 'unknown instanceid or wrong token' });
  }
  if (instanceStatus(state.expiresAt, data.now) === 'expired') {
    return refuse({
      code: Codes.InstanceExpired,
      field: 'instanceid',
      message: 'the instance has expired; renew it first',
    });
  }
  const instanceId = state.instanceId;
  const previousValidUntil = addHours(data.now, data.overlapHours);
  if (rotatesKeyPair(state)) {
    if (data.newSigningKey === undefined) throw new Error('RotateSigningSecret: ed25519 needs newSigningKey');
    return [
      {
        type: 'SigningKeyPairRotated',
        data: { instanceId, ...data.newSigningKey, rotatedAt: data.now, previousValidUntil },
      },
    ];
  }
  if (data.newSigningSecret === undefined) throw new Error('RotateSigningSecret: hmac needs newSigningSecret');
  return [
    {
      type: 'SigningSecretRotated',
      data: {
        instanceId,
        encryptedSecret: data.newSigningSecret,
        rotatedAt: data.now,
        previousValidUntil: state.encryptedSigningSecret === null ? null : previousValidUntil,
      },
    },
  ];
}
