import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import { instanceDecider } from './instance.decider';
import type { InstanceCommand } from './instance.commands';
import type { InstanceEvent } from './instance.events';
import { signingSecretsAt, type CreatedInstance } from './instance.state';
import { DEFAULT_NOTIFICATION_KINDS, type NotificationKind } from './notification-kinds';
import { DEFAULT_PACKAGES } from './package-catalogue';

// docs/api.md 8.1 to 8.5: deleting an instance, resetting its token, rotating its signing secret and
// choosing the kinds of notification.
const spec = deciderSpec(instanceDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-02T00:00:00.000Z';
const afterExpiry = '2026-02-15T00:00:00.000Z';
const ann = 'acct-ann';
const created: InstanceEvent = {
  type: 'InstanceCreated',
  data: {
    instanceId: 'i1',
    accountId: ann,
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
const deleted: InstanceEvent = { type: 'InstanceDeleted', data: { instanceId: 'i1', deletedAt: t1 } };
const del = (accountId = ann, now = t1): InstanceCommand => ({ type: 'DeleteInstance', data: { accountId, now } });
const resetToken = (accountId = ann, now = t1): InstanceCommand => ({
  type: 'ResetInstanceToken',
  data: { accountId, tokenHash: 'th2', now },
});
const rotate = (now = t1, overlapHours = 24): InstanceCommand => ({
  type: 'RotateSigningSecret',
  data: { newSigningSecret: 'enc-2', overlapHours, now },
});
const change = (url: string, events?: NotificationKind[]): InstanceCommand => ({
  type: 'ChangeWebhook',
  data: { url, now: t1, newSigningSecret: 'enc-new', ...(events ? { events: [...events] } : {}) },
});
const stateOf = (history: InstanceEvent[]) => fold(instanceDecider, history) as CreatedInstance;

describe('deleting an instance (8.1)', () => {
  it("records InstanceDeleted for the owner's instance, expired or not", () => {
    spec.given([created, issued, set]).when(del()).then([deleted]);
    spec
      .given([created])
      .when(del(ann, afterExpiry))
      .then([{ type: 'InstanceDeleted', data: { instanceId: 'i1', deletedAt: afterExpiry } }]);
  });

  it("answers 0005 for another account's instance, a missing one and one already deleted", () => {
    spec.given([created]).when(del('acct-bob')).thenRefuses(['0005']);
    spec.given([]).when(del()).thenRefuses(['0005']);
    spec.given([created, deleted]).when(del()).thenRefuses(['0005']);
  });

  it('leaves nothing to renew, reset, register or rotate afterwards', () => {
    spec
      .given([created, deleted])
      .when({
        type: 'RenewInstance',
        data: { accountId: ann, packageId: 'monthly', packages: DEFAULT_PACKAGES, now: t1 },
      })
      .thenRefuses(['0005']);
    spec.given([created, deleted]).when(resetToken()).thenRefuses(['0005']);
    spec.given([created, deleted]).when(change('https://a.example/h')).thenRefuses(['0006']);
    spec.given([created, deleted]).when(rotate()).thenRefuses(['0006']);
  });

  it('keeps the instance id taken: a new instance never reuses it', () => {
    expect(fold(instanceDecider, [created, deleted])).toEqual({
      status: 'deleted',
      instanceId: 'i1',
      accountId: ann,
      deletedAt: t1,
    });
  });
});

describe('resetting the instance token (8.2)', () => {
  it('records the new hash, also on an expired instance, and changes nothing else', () => {
    spec
      .given([created, issued, set])
      .when(resetToken())
      .then([{ type: 'InstanceTokenReset', data: { instanceId: 'i1', tokenHash: 'th2', resetAt: t1 } }]);
    spec
      .given([created])
      .when(resetToken(ann, afterExpiry))
      .then([{ type: 'InstanceTokenReset', data: { instanceId: 'i1', tokenHash: 'th2', resetAt: afterExpiry } }]);
    const before = stateOf([created, issued, set]);
    const after = stateOf([
      created,
      issued,
      set,
      { type: 'InstanceTokenReset', data: { instanceId: 'i1', tokenHash: 'th2', resetAt: t1 } },
    ]);
    expect(after).toEqual({ ...before, tokenHash: 'th2' });
  });

  it("answers 0005 for another account's instance", () => {
    spec.given([created]).when(resetToken('acct-bob')).thenRefuses(['0005']);
  });
});

describe('rotating the signing secret (8.5)', () => {
  it('keeps the previous secret signing, second, until the overlap ends', () => {
    spec
      .given([created, issued, set])
      .when(rotate(t1, 1.5))
      .then([
        {
          type: 'SigningSecretRotated',
          data: {
            instanceId: 'i1',
            encryptedSecret: 'enc-2',
            rotatedAt: t1,
            previousValidUntil: '2026-01-02T01:30:00.000Z',
          },
        },
      ]);
    const state = stateOf([
      created,
      issued,
      set,
      {
        type: 'SigningSecretRotated',
        data: {
          instanceId: 'i1',
          encryptedSecret: 'enc-2',
          rotatedAt: t1,
          previousValidUntil: '2026-01-02T01:30:00.000Z',
        },
      },
    ]);
    expect(signingSecretsAt(state, '2026-01-02T01:29:59.999Z')).toEqual(['enc-2', 'enc-1']);
    expect(signingSecretsAt(state, '2026-01-02T01:30:00.000Z')).toEqual(['enc-2']);
  });

  it('creates the first secret of an instance that had none, with no previous one', () => {
    spec
      .given([created])
      .when(rotate())
      .then([
        {
          type: 'SigningSecretRotated',
          data: { instanceId: 'i1', encryptedSecret: 'enc-2', rotatedAt: t1, previousValidUntil: null },
        },
      ]);
    const state = stateOf([
      created,
      {
        type: 'SigningSecretRotated',
        data: { instanceId: 'i1', encryptedSecret: 'enc-2', rotatedAt: t1, previousValidUntil: null },
      },
    ]);
    expect(signingSecretsAt(state, t1)).toEqual(['enc-2']);
  });

  it('a second rotation during the overlap drops the oldest secret', () => {
    const first: InstanceEvent = {
      type: 'SigningSecretRotated',
      data: {
        instanceId: 'i1',
        encryptedSecret: 'enc-2',
        rotatedAt: t1,
        previousValidUntil: '2026-01-03T00:00:00.000Z',
      },
    };
    const second: InstanceEvent = {
      type: 'SigningSecretRotated',
      data: {
        instanceId: 'i1',
        encryptedSecret: 'enc-3',
        rotatedAt: t1,
        previousValidUntil: '2026-01-03T00:00:00.000Z',
      },
    };
    expect(signingSecretsAt(stateOf([created, issued, first, second]), t1)).toEqual(['enc-3', 'enc-2']);
  });

  it('answers 0007 on an expired instance', () => {
    spec.given([created, issued]).when(rotate(afterExpiry)).thenRefuses(['0007']);
  });
});

describe('choosing the kinds of notification (8.4)', () => {
  it('records the default set when none is given, and the chosen set in canonical order', () => {
    spec
      .given([created, issued])
      .when(change('https://a.example/h'))
      .then([
        {
          type: 'WebhookSet',
          data: { instanceId: 'i1', url: 'https://a.example/h', setAt: t1, events: [...DEFAULT_NOTIFICATION_KINDS] },
        },
      ]);
    spec
      .given([created, issued])
      .when(change('https://a.example/h', ['acks', 'messages', 'acks']))
      .then([
        {
          type: 'WebhookSet',
          data: { instanceId: 'i1', url: 'https://a.example/h', setAt: t1, events: ['messages', 'acks'] },
        },
      ]);
  });

  it('records nothing for the same URL and set, and a change for the same URL with another set', () => {
    spec
      .given([created, issued, set])
      .when(change('https://a.example/h', ['ownMessages', 'messages', 'acks']))
      .then([]);
    spec
      .given([created, issued, set])
      .when(change('https://a.example/h', ['acks']))
      .then([
        { type: 'WebhookSet', data: { instanceId: 'i1', url: 'https://a.example/h', setAt: t1, events: ['acks'] } },
      ]);
  });

  it('reads a registration stored before kinds existed as the default set, and keeps the set while switched off', () => {
    expect(stateOf([created, issued, set]).events).toEqual(['messages', 'ownMessages', 'acks']);
    const chosen: InstanceEvent = {
      type: 'WebhookSet',
      data: { instanceId: 'i1', url: 'https://a.example/h', setAt: t0, events: ['instance', 'acks'] },
    };
    const cleared: InstanceEvent = { type: 'WebhookCleared', data: { instanceId: 'i1', clearedAt: t1 } };
    expect(stateOf([created, issued, chosen, cleared]).events).toEqual(['acks', 'instance']);
    // An empty URL ignores `events`.
    spec
      .given([created, issued, chosen])
      .when(change('', ['messages']))
      .then([cleared]);
  });
});
