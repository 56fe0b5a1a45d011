import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import { InstanceIdTaken, instanceDecider } from './instance.decider';
import { needsNewSigningSecret } from './instance-webhook.decide';
import type { InstanceCommand } from './instance.commands';
import type { InstanceEvent } from './instance.events';
import { deliveryEnabled, instanceStatus } from './instance.state';
import { DEFAULT_PACKAGES, parsePackageCatalogue } from './package-catalogue';

const spec = deciderSpec(instanceDecider);
const packages = DEFAULT_PACKAGES;
const t0 = '2026-01-01T00:00:00.000Z';
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
const webhookSet = (url: string, setAt = t0): InstanceEvent => ({
  type: 'WebhookSet',
  data: { instanceId: 'i1', url, setAt, events: ['messages', 'ownMessages', 'acks'] },
});
const change = (url: string, now = '2026-01-02T00:00:00.000Z', urlRefusal?: string): InstanceCommand => ({
  type: 'ChangeWebhook',
  data: { url, now, newSigningSecret: 'enc-new', ...(urlRefusal ? { urlRefusal } : {}) },
});
const issued: InstanceEvent = {
  type: 'SigningSecretIssued',
  data: { instanceId: 'i1', encryptedSecret: 'enc-1', issuedAt: t0 },
};
const issuedAt = (at: string): InstanceEvent => ({
  type: 'SigningSecretIssued',
  data: { instanceId: 'i1', encryptedSecret: 'enc-new', issuedAt: at },
});
const renew = (packageId: string, now: string, accountId = 'acct-ann'): InstanceCommand => ({
  type: 'RenewInstance',
  data: { accountId, packageId, packages, now },
});

describe('creating an instance', () => {
  it('starts it under the package duration with delivery off', () => {
    spec
      .given([])
      .when({
        type: 'CreateInstance',
        data: { instanceId: 'i1', accountId: 'acct-ann', packageId: 'monthly', packages, tokenHash: 'th', now: t0 },
      })
      .then([created]);
  });

  it('refuses an unknown package with 0004', () => {
    spec
      .given([])
      .when({
        type: 'CreateInstance',
        data: { instanceId: 'i1', accountId: 'acct-ann', packageId: 'gold', packages, tokenHash: 'th', now: t0 },
      })
      .thenRefuses(['0004']);
  });

  it('never overwrites an existing instance id', () => {
    spec
      .given([created])
      .when({
        type: 'CreateInstance',
        data: { instanceId: 'i1', accountId: 'acct-bob', packageId: 'trial', packages, tokenHash: 'x', now: t0 },
      })
      .thenThrows(InstanceIdTaken);
  });
});

describe('renewing an instance', () => {
  it('counts from expiresAt while the instance is still active, and may change the package', () => {
    spec
      .given([created])
      .when(renew('annual', '2026-01-10T00:00:00.000Z'))
      .then([
        {
          type: 'InstanceRenewed',
          data: {
            instanceId: 'i1',
            packageId: 'annual',
            renewedAt: '2026-01-10T00:00:00.000Z',
            expiresAt: '2027-01-31T00:00:00.000Z',
          },
        },
      ]);
  });

  it('counts from now once the instance has expired', () => {
    spec
      .given([created])
      .when(renew('trial', '2026-03-01T12:00:00.000Z'))
      .then([
        {
          type: 'InstanceRenewed',
          data: {
            instanceId: 'i1',
            packageId: 'trial',
            renewedAt: '2026-03-01T12:00:00.000Z',
            expiresAt: '2026-03-04T12:00:00.000Z',
          },
        },
      ]);
  });

  it("reports another account's instance exactly like a missing one (0005)", () => {
    spec
      .given([created])
      .when(renew('monthly', t0, 'acct-bob'))
      .thenRefuses(['0005']);
    spec.given([]).when(renew('monthly', t0)).thenRefuses(['0005']);
  });

  it('reports an unknown package and an unknown instance together', () => {
    spec.given([]).when(renew('gold', t0)).thenRefuses(['0004', '0005']);
  });
});

describe('changing the webhook', () => {
  it('registers a URL and switches delivery on', () => {
    spec
      .given([created])
      .when(change('https://a.example/hook'))
      .then([issuedAt('2026-01-02T00:00:00.000Z'), webhookSet('https://a.example/hook', '2026-01-02T00:00:00.000Z')]);
  });

  it('records nothing when the same URL is registered twice', () => {
    spec
      .given([created, issued, webhookSet('https://a.example/hook')])
      .when(change('https://a.example/hook'))
      .then([]);
  });

  it('records a new URL that replaces the old one', () => {
    spec
      .given([created, issued, webhookSet('https://a.example/hook')])
      .when(change('https://b.example/hook'))
      .then([webhookSet('https://b.example/hook', '2026-01-02T00:00:00.000Z')]);
  });

  it('clears delivery on an empty URL', () => {
    spec
      .given([created, issued, webhookSet('https://a.example/hook')])
      .when(change(''))
      .then([{ type: 'WebhookCleared', data: { instanceId: 'i1', clearedAt: '2026-01-02T00:00:00.000Z' } }]);
  });

  it('records nothing when clearing a webhook that was never set', () => {
    spec.given([created]).when(change('')).then([]);
  });

  it('refuses any change on an expired instance (0007), even a clear', () => {
    spec.given([created]).when(change('https://a.example/hook', '2026-02-01T00:00:00.000Z')).thenRefuses(['0007']);
    spec
      .given([created, issued, webhookSet('https://a.example/hook')])
      .when(change('', '2026-01-31T00:00:00.000Z'))
      .thenRefuses(['0007']);
  });

  it('accepts changes again once an expired instance is renewed', () => {
    const renewed: InstanceEvent = {
      type: 'InstanceRenewed',
      data: {
        instanceId: 'i1',
        packageId: 'trial',
        renewedAt: '2026-02-10T00:00:00.000Z',
        expiresAt: '2026-02-13T00:00:00.000Z',
      },
    };
    spec
      .given([created, renewed])
      .when(change('https://a.example/hook', '2026-02-11T00:00:00.000Z'))
      .then([issuedAt('2026-02-11T00:00:00.000Z'), webhookSet('https://a.example/hook', '2026-02-11T00:00:00.000Z')]);
  });

  it('reports an expired instance and a refused target together (0007, 0008)', () => {
    spec
      .given([created])
      .when(change('https://internal.example/hook', '2026-03-01T00:00:00.000Z', 'resolves to a private address'))
      .thenRefuses(['0007', '0008']);
  });

  it('refuses a URL whose host is not public (0008)', () => {
    spec
      .given([created])
      .when(change('https://internal.example/hook', undefined, 'resolves to a private address'))
      .thenRefuses(['0008']);
  });

  it('switches delivery back on when the receiver had disabled it and the same URL is registered again', () => {
    const disabled: InstanceEvent = {
      type: 'WebhookDisabledByReceiver',
      data: { instanceId: 'i1', url: 'https://a.example/hook', reason: 'receiver answered 410 Gone', disabledAt: t0 },
    };
    spec
      .given([created, issued, webhookSet('https://a.example/hook'), disabled])
      .when(change('https://a.example/hook'))
      .then([webhookSet('https://a.example/hook', '2026-01-02T00:00:00.000Z')]);
  });
});

describe('the signing secret', () => {
  it('is issued with the first registration and kept across later ones, clears included', () => {
    spec
      .given([
        created,
        issued,
        webhookSet('https://a.example/hook'),
        { type: 'WebhookCleared', data: { instanceId: 'i1', clearedAt: t0 } },
      ])
      .when(change('https://b.example/hook'))
      .then([webhookSet('https://b.example/hook', '2026-01-02T00:00:00.000Z')]);
  });

  it('is not issued by switching delivery off', () => {
    spec.given([created]).when(change('')).then([]);
  });

  it('is needed only by a first non-empty registration, and a first registration without one is a bug', () => {
    const state = (events: InstanceEvent[]) => fold(instanceDecider, events);
    expect(needsNewSigningSecret(state([created]), 'https://a.example/hook')).toBe(true);
    expect(needsNewSigningSecret(state([created]), '')).toBe(false);
    expect(needsNewSigningSecret(state([created, issued]), 'https://a.example/hook')).toBe(false);
    const { newSigningSecret: _unused, ...withoutSecret } = (
      change('https://a.example/hook') as Extract<InstanceCommand, { type: 'ChangeWebhook' }>
    ).data;
    spec.given([created]).when({ type: 'ChangeWebhook', data: withoutSecret }).thenThrows(Error);
    spec
      .given([created, issued])
      .when({ type: 'ChangeWebhook', data: withoutSecret })
      .then([webhookSet('https://a.example/hook', '2026-01-02T00:00:00.000Z')]);
  });
});

describe('a receiver answering 410 Gone', () => {
  const disable = (url: string): InstanceCommand => ({
    type: 'DisableWebhookForReceiver',
    data: { url, reason: 'receiver answered 410 Gone', now: t0 },
  });

  it('switches delivery off with a reason', () => {
    spec
      .given([created, issued, webhookSet('https://a.example/hook')])
      .when(disable('https://a.example/hook'))
      .then([
        {
          type: 'WebhookDisabledByReceiver',
          data: {
            instanceId: 'i1',
            url: 'https://a.example/hook',
            reason: 'receiver answered 410 Gone',
            disabledAt: t0,
          },
        },
      ]);
  });

  it('changes nothing for a URL that was replaced meanwhile', () => {
    spec
      .given([created, issued, webhookSet('https://b.example/hook')])
      .when(disable('https://a.example/hook'))
      .then([]);
  });
});

describe('instance state', () => {
  it('is active strictly before expiresAt and expired from then on', () => {
    expect(instanceStatus('2026-01-31T00:00:00.000Z', '2026-01-30T23:59:59.999Z')).toBe('active');
    expect(instanceStatus('2026-01-31T00:00:00.000Z', '2026-01-31T00:00:00.000Z')).toBe('expired');
  });

  it('delivers only while a URL is registered and the instance is active', () => {
    const state = fold(instanceDecider, [created, webhookSet('https://a.example/hook')]);
    if (state.status !== 'created') throw new Error('expected a created instance');
    expect(deliveryEnabled(state, '2026-01-02T00:00:00.000Z')).toBe(true);
    expect(deliveryEnabled(state, '2026-02-01T00:00:00.000Z')).toBe(false);
  });
});

describe('package catalogue', () => {
  it('accepts the shipped defaults', () => {
    expect(parsePackageCatalogue(DEFAULT_PACKAGES)).toEqual({ ok: true, packages: DEFAULT_PACKAGES });
  });

  it('names every problem of a bad file at once', () => {
    const result = parsePackageCatalogue([
      { packageid: 'a', durationDays: 0 },
      { packageid: 'a', durationDays: 2 },
      'x',
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toHaveLength(3);
  });
});
