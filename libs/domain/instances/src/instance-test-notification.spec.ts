import { deciderSpec } from '@gw/domain-core/testing';
import { instanceDecider } from './instance.decider';
import type { InstanceCommand } from './instance.commands';
import type { InstanceEvent } from './instance.events';

// docs/api.md 8.6: when a test notification may be sent, and the one change it can make.
const spec = deciderSpec(instanceDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-02T00:00:00.000Z';
const afterExpiry = '2026-02-15T00:00:00.000Z';
const created: InstanceEvent = {
  type: 'InstanceCreated',
  data: {
    instanceId: 'i1',
    accountId: 'acct-ann',
    packageId: 'monthly',
    tokenHash: 'th',
    createdAt: t0,
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
};
const issued: InstanceEvent = {
  type: 'SigningSecretIssued',
  data: { instanceId: 'i1', encryptedSecret: 'enc-1', issuedAt: t0 },
};
const set: InstanceEvent = { type: 'WebhookSet', data: { instanceId: 'i1', url: 'https://a.example/h', setAt: t0 } };
const gone: InstanceEvent = {
  type: 'WebhookDisabledByReceiver',
  data: { instanceId: 'i1', url: 'https://a.example/h', reason: 'the receiver answered 410 Gone', disabledAt: t1 },
};
const cleared: InstanceEvent = { type: 'WebhookCleared', data: { instanceId: 'i1', clearedAt: t1 } };
const prepare = (
  url = '',
  extra: { urlRefusal?: string; newSigningSecret?: string; now?: string } = {},
): InstanceCommand => ({
  type: 'PrepareTestNotification',
  data: { url, now: t1, ...extra },
});

describe('preparing a test notification (8.6)', () => {
  it('allows a test of the registered URL and changes nothing', () => {
    spec.given([created, issued, set]).when(prepare()).then([]);
  });

  it('allows a test of another URL and changes nothing when a secret exists', () => {
    spec
      .given([created, issued, set])
      .when(prepare('https://b.example/h', { newSigningSecret: 'enc-new' }))
      .then([]);
    spec.given([created, issued, set, gone]).when(prepare('https://b.example/h')).then([]);
  });

  it('gives an instance without a secret its first one, the one its first registration keeps', () => {
    spec
      .given([created])
      .when(prepare('https://b.example/h', { newSigningSecret: 'enc-new' }))
      .then([{ type: 'SigningSecretIssued', data: { instanceId: 'i1', encryptedSecret: 'enc-new', issuedAt: t1 } }]);
  });

  it('answers 0015 without a URL when none is registered, or after the receiver switched delivery off', () => {
    spec.given([created]).when(prepare()).thenRefuses(['0015']);
    spec.given([created, issued, set, cleared]).when(prepare()).thenRefuses(['0015']);
    spec.given([created, issued, set, gone]).when(prepare()).thenRefuses(['0015']);
  });

  it('answers 0008 for a URL whose host is not public', () => {
    spec
      .given([created, issued, set])
      .when(prepare('https://10.0.0.1/h', { urlRefusal: 'private' }))
      .thenRefuses(['0008']);
  });

  it('answers 0007 on an expired instance, together with the other problems of its stage', () => {
    spec
      .given([created, issued, set])
      .when(prepare('', { now: afterExpiry }))
      .thenRefuses(['0007']);
    spec
      .given([created])
      .when(prepare('', { now: afterExpiry }))
      .thenRefuses(['0007', '0015']);
    spec
      .given([created, issued])
      .when(prepare('https://10.0.0.1/h', { urlRefusal: 'private', now: afterExpiry }))
      .thenRefuses(['0007', '0008']);
  });

  it('answers 0006 for an instance that does not exist', () => {
    spec.given([]).when(prepare()).thenRefuses(['0006']);
  });
});
