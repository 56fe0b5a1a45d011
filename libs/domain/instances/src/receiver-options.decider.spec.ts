import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import { instanceDecider } from './instance.decider';
import { needsNewSigningKey, rotatesKeyPair } from './instance-webhook.decide';
import type { InstanceCommand } from './instance.commands';
import type { InstanceEvent } from './instance.events';
import { signingSecretsAt, type CreatedInstance } from './instance.state';
import type { ReceiverHeaders, SignatureScheme } from './receiver-options';

// docs/api.md section 12: the receiver's own headers, the signature scheme and the failing switch-off.
const spec = deciderSpec(instanceDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-02T00:00:00.000Z';
const url = 'https://a.example/h';
const I = 'i1';
const created: InstanceEvent = {
  type: 'InstanceCreated',
  data: {
    instanceId: I,
    accountId: 'acct',
    packageId: 'monthly',
    tokenHash: 'th',
    createdAt: t0,
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
};
const issued: InstanceEvent = {
  type: 'SigningSecretIssued',
  data: { instanceId: I, encryptedSecret: 'enc-1', issuedAt: t0 },
};
const set: InstanceEvent = {
  type: 'WebhookSet',
  data: { instanceId: I, url, setAt: t0, events: ['messages', 'ownMessages', 'acks'] },
};
const auth: ReceiverHeaders = { names: ['Authorization'], sealed: 'sealed-a', fingerprint: 'fp-a' };
const key = { sealedPrivateKey: 'sealed-key-1', publicKey: 'whpk_one' };
const change = (
  options: { headers?: ReceiverHeaders; signatureScheme?: SignatureScheme; newSigningKey?: typeof key },
  to = url,
): InstanceCommand => ({ type: 'ChangeWebhook', data: { url: to, now: t1, newSigningSecret: 'enc-new', ...options } });
const headersSet = (h: ReceiverHeaders, at = t1): InstanceEvent => ({
  type: 'WebhookHeadersSet',
  data: { instanceId: I, names: h.names, sealedHeaders: h.sealed, headersHash: h.fingerprint, setAt: at },
});
const keyIssued: InstanceEvent = { type: 'SigningKeyPairIssued', data: { instanceId: I, ...key, issuedAt: t1 } };
const chosen = (scheme: SignatureScheme): InstanceEvent => ({
  type: 'SignatureSchemeChosen',
  data: { instanceId: I, scheme, chosenAt: t1 },
});
const stateOf = (history: InstanceEvent[]) => fold(instanceDecider, history) as CreatedInstance;

describe('webhookHeaders (section 12)', () => {
  it('records the headers, sealed, once; the same headers again record nothing', () => {
    spec
      .given([created, issued, set])
      .when(change({ headers: auth }))
      .then([headersSet(auth)]);
    spec
      .given([created, issued, set, headersSet(auth)])
      .when(change({ headers: { ...auth, sealed: 'resealed' } }))
      .then([]);
  });

  it('keeps them when left out, removes them with none, and an empty URL ignores them', () => {
    spec
      .given([created, issued, set, headersSet(auth)])
      .when(change({}))
      .then([]);
    const none: ReceiverHeaders = { names: [], sealed: null, fingerprint: null };
    spec
      .given([created, issued, set, headersSet(auth)])
      .when(change({ headers: none }))
      .then([headersSet(none)]);
    spec
      .given([created, issued, set])
      .when(change({ headers: auth }, ''))
      .then([{ type: 'WebhookCleared', data: { instanceId: I, clearedAt: t1 } }]);
    expect(stateOf([created, issued, set, headersSet(auth)]).webhookHeaders).toEqual(auth);
  });

  it('comes with the first registration, after the secret and the URL', () => {
    spec
      .given([created])
      .when(change({ headers: auth }))
      .then([
        { type: 'SigningSecretIssued', data: { instanceId: I, encryptedSecret: 'enc-new', issuedAt: t1 } },
        { type: 'WebhookSet', data: { instanceId: I, url, setAt: t1, events: ['messages', 'ownMessages', 'acks'] } },
        headersSet(auth),
      ]);
  });
});

describe('signatureScheme (section 12)', () => {
  it('issues the key pair with the first choice of ed25519, and signs with it from then on', () => {
    spec
      .given([created, issued, set])
      .when(change({ signatureScheme: 'ed25519', newSigningKey: key }))
      .then([keyIssued, chosen('ed25519')]);
    const state = stateOf([created, issued, set, keyIssued, chosen('ed25519')]);
    expect(signingSecretsAt(state, t1)).toEqual(['sealed-key-1']);
    expect(stateOf([created, issued, set, keyIssued, chosen('ed25519'), chosen('hmac')]).signatureScheme).toBe('hmac');
    expect(signingSecretsAt(stateOf([created, issued, set, keyIssued, chosen('ed25519'), chosen('hmac')]), t1)).toEqual(
      ['enc-1'],
    );
  });

  it('keeps the key pair across switches, and the same scheme records nothing', () => {
    spec
      .given([created, issued, set, keyIssued, chosen('ed25519')])
      .when(change({ signatureScheme: 'ed25519' }))
      .then([]);
    spec
      .given([created, issued, set, keyIssued, chosen('ed25519'), chosen('hmac')])
      .when(change({ signatureScheme: 'ed25519' }))
      .then([chosen('ed25519')]);
    spec
      .given([created, issued, set])
      .when(change({ signatureScheme: 'hmac' }))
      .then([]);
    const state = stateOf([created, issued, set, keyIssued, chosen('ed25519'), chosen('hmac')]);
    expect(needsNewSigningKey(state, url, 'ed25519')).toBe(false);
    expect(needsNewSigningKey(stateOf([created, issued, set]), url, 'ed25519')).toBe(true);
    expect(needsNewSigningKey(stateOf([created, issued, set]), '', 'ed25519')).toBe(false);
  });

  it('rotates the key pair under ed25519, with the overlap of 8.5: new first, then the previous', () => {
    const next = { sealedPrivateKey: 'sealed-key-2', publicKey: 'whpk_two' };
    const history = [created, issued, set, keyIssued, chosen('ed25519')];
    expect(rotatesKeyPair(stateOf(history))).toBe(true);
    const rotated: InstanceEvent = {
      type: 'SigningKeyPairRotated',
      data: { instanceId: I, ...next, rotatedAt: t1, previousValidUntil: '2026-01-03T00:00:00.000Z' },
    };
    spec
      .given(history)
      .when({ type: 'RotateSigningSecret', data: { newSigningKey: next, overlapHours: 24, now: t1 } })
      .then([rotated]);
    const after = stateOf([...history, rotated]);
    expect(signingSecretsAt(after, '2026-01-02T12:00:00.000Z')).toEqual(['sealed-key-2', 'sealed-key-1']);
    expect(signingSecretsAt(after, '2026-01-03T00:00:00.000Z')).toEqual(['sealed-key-2']);
    expect(after.encryptedSigningSecret).toBe('enc-1');
  });
});

describe('switching delivery off for failing (section 12)', () => {
  const failing = (forUrl = url): InstanceCommand => ({
    type: 'DisableWebhookForFailing',
    data: { url: forUrl, failingSince: t0, now: t1 },
  });
  it('records why, and says "failing" until a URL is registered again', () => {
    const off: InstanceEvent = {
      type: 'WebhookDisabledForFailing',
      data: { instanceId: I, url, failingSince: t0, disabledAt: t1 },
    };
    spec.given([created, issued, set]).when(failing()).then([off]);
    const state = stateOf([created, issued, set, off]);
    expect([state.webhookOn, state.disabledReason]).toEqual([false, 'failing']);
    spec
      .given([created, issued, set, off])
      .when(change({}))
      .then([
        { type: 'WebhookSet', data: { instanceId: I, url, setAt: t1, events: ['messages', 'ownMessages', 'acks'] } },
      ]);
  });
  it('changes nothing for another URL or when delivery is already off', () => {
    spec.given([created, issued, set]).when(failing('https://b.example/h')).then([]);
    spec
      .given([created, issued, set, { type: 'WebhookCleared', data: { instanceId: I, clearedAt: t1 } }])
      .when(failing())
      .then([]);
  });
});
