import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import { instanceDecider } from './instance.decider';
import type { InstanceEvent } from './instance.events';
import { DEFAULT_PACKAGES } from './package-catalogue';

/** docs/api.md 13.1 and 13.2: labels and connection states in the instance's log. */
const spec = deciderSpec(instanceDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-02T00:00:00.000Z';
const created: InstanceEvent = {
  type: 'InstanceCreated',
  data: {
    instanceId: 'i1',
    accountId: 'ann',
    packageId: 'monthly',
    tokenHash: 'th',
    createdAt: t0,
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
};
const labelSet = (label: string | null, setAt = t1): InstanceEvent => ({
  type: 'InstanceLabelSet',
  data: { instanceId: 'i1', label, setAt },
});
const reported = (state: 'qr' | 'authorized', since: string): InstanceEvent => ({
  type: 'InstanceStateReported',
  data: { instanceId: 'i1', state, since, reportedAt: t1 },
});
const deleted: InstanceEvent = { type: 'InstanceDeleted', data: { instanceId: 'i1', deletedAt: t1 } };

describe('labels (13.1)', () => {
  it('a label given at creation is recorded after the creation, as an event of its own', () => {
    spec
      .given([])
      .when({
        type: 'CreateInstance',
        data: {
          instanceId: 'i1',
          accountId: 'ann',
          packageId: 'monthly',
          packages: DEFAULT_PACKAGES,
          tokenHash: 'th',
          label: 'shop',
          now: t0,
        },
      })
      .then([created, labelSet('shop', t0)]);
  });

  it('setting a label records it; the same label again records nothing; empty removes it', () => {
    const set = (label: string) => ({ type: 'SetInstanceLabel' as const, data: { accountId: 'ann', label, now: t1 } });
    spec
      .given([created])
      .when(set('shop'))
      .then([labelSet('shop')]);
    spec
      .given([created, labelSet('shop')])
      .when(set('shop'))
      .then([]);
    spec
      .given([created, labelSet('shop')])
      .when(set(''))
      .then([labelSet(null)]);
    spec.given([created]).when(set('')).then([]);
  });

  it("another account's, a deleted or a missing instance is 0005", () => {
    const set = (accountId: string) => ({
      type: 'SetInstanceLabel' as const,
      data: { accountId, label: 'x', now: t1 },
    });
    spec.given([created]).when(set('bob')).thenRefuses(['0005']);
    spec.given([created, deleted]).when(set('ann')).thenRefuses(['0005']);
    spec.given([]).when(set('ann')).thenRefuses(['0005']);
  });

  it('the state folds the label in and out', () => {
    const state = fold(instanceDecider, [created, labelSet('shop')]);
    expect(state).toEqual(expect.objectContaining({ label: 'shop', connectionState: null, connectionSince: null }));
    expect(fold(instanceDecider, [created, labelSet('shop'), labelSet(null)])).toEqual(
      expect.objectContaining({ label: null }),
    );
  });
});

describe('connection states (13.2)', () => {
  const report = (state: 'qr' | 'authorized', since: string) => ({
    type: 'ReportInstanceState' as const,
    data: { state, since, now: t1 },
  });

  it('a new state is recorded with the time the gateway gave as its start', () => {
    spec
      .given([created])
      .when(report('qr', t0))
      .then([reported('qr', t0)]);
    spec
      .given([created, reported('qr', t0)])
      .when(report('authorized', t1))
      .then([reported('authorized', t1)]);
  });

  it('the same state as the current one records nothing, whatever its time', () => {
    spec
      .given([created, reported('qr', t0)])
      .when(report('qr', t1))
      .then([]);
  });

  it('a deleted or missing instance is 0005', () => {
    spec.given([created, deleted]).when(report('qr', t0)).thenRefuses(['0005']);
    spec.given([]).when(report('qr', t0)).thenRefuses(['0005']);
  });

  it('the state holds the last state and since when', () => {
    expect(fold(instanceDecider, [created, reported('qr', t0), reported('authorized', t1)])).toEqual(
      expect.objectContaining({ connectionState: 'authorized', connectionSince: t1 }),
    );
  });
});
