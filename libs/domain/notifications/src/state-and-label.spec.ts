import { deciderSpec, workflowSpec } from '@gw/domain-core/testing';
import type { InstanceEvent, NotificationKind } from '@gw/domain-instances';
import { batchNotifiable, type NotifiableItem } from './notification-batches';
import { notificationsDecider } from './notifications.decider';
import { notifierWorkflow, type NotifierInput } from './notifier.workflow';

/** docs/api.md 13.1 and 13.2 in the notifier's domain: each change of connection state is its own
 * notification when `state` is chosen, and every body carries the instance's label. */
const I = 'i1';
const t0 = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const afterExpiry = '2026-01-05T00:00:00.000Z';
const url = 'https://receiver.example/hook';
const recorded = (event: InstanceEvent, sourceEventId = `ev-${event.type}`): NotifierInput => ({
  type: 'InstanceEventRecorded',
  data: { event, sourceEventId, now: later },
});
const created = recorded({
  type: 'InstanceCreated',
  data: {
    instanceId: I,
    accountId: 'ann',
    packageId: 'trial',
    tokenHash: 'th',
    createdAt: t0,
    expiresAt: '2026-01-04T00:00:00.000Z',
  },
});
const secret = recorded({ type: 'SigningSecretIssued', data: { instanceId: I, encryptedSecret: 's', issuedAt: t0 } });
const set = (events: NotificationKind[]) =>
  recorded({ type: 'WebhookSet', data: { instanceId: I, url, setAt: t0, events } });
const reported = (reportedAt = later): InstanceEvent => ({
  type: 'InstanceStateReported',
  data: { instanceId: I, state: 'qr', since: '2026-01-01T12:00:00.000Z', reportedAt },
});

describe('the notifier workflow: connection states (13.2)', () => {
  const spec = workflowSpec(notifierWorkflow);

  it('notifies a reported state when `state` is chosen, with its since, as its own item', () => {
    spec
      .given([created, secret, set(['messages', 'state'])])
      .when(recorded(reported(), 'ev-state'))
      .then([
        {
          type: 'Notify',
          data: { item: { sourceEventId: 'ev-state', state: { state: 'qr', since: '2026-01-01T12:00:00.000Z' } } },
        },
      ]);
  });

  it('notifies no state under the default set, while delivery is off, or after expiry', () => {
    spec
      .given([created, secret, set(['messages', 'ownMessages', 'acks'])])
      .when(recorded(reported()))
      .then([]);
    spec.given([created]).when(recorded(reported())).then([]);
    spec
      .given([created, secret, set(['state'])])
      .when(recorded(reported(afterExpiry)))
      .then([]);
  });
});

describe('batching (13.4): a change of state travels alone', () => {
  const message = (n: number): NotifiableItem => ({
    sourceEventId: `m${n}`,
    message: { id: `m${n}`, fromMe: false, type: 'chat', time: 1, sealed: 's' },
  });
  const state: NotifiableItem = { sourceEventId: 's1', state: { state: 'authorized', since: t0 } };

  it('closes the batch before it and opens a new one after it', () => {
    const batches = batchNotifiable([message(1), message(2), state, message(3)], {
      maxItems: 100,
      maxBytes: 100_000,
      sizeOf: () => 10,
    });
    expect(batches.map((b) => b.sourceEventIds)).toEqual([['m1', 'm2'], ['s1'], ['m3']]);
    expect(batches[1].content).toEqual({ state: { state: 'authorized', since: t0 } });
  });
});

describe('notification bodies carry the label (13.1)', () => {
  const spec = deciderSpec(notificationsDecider);
  const create = (label?: string | null) => ({
    type: 'CreateNotifications' as const,
    data: {
      instanceId: I,
      now: later,
      ...(label === undefined ? {} : { label }),
      notifications: [
        { webhookId: 'w1', content: { state: { state: 'qr' as const, since: t0 } }, sourceEventIds: ['s1'] },
      ],
    },
  });
  const made = (body: object) => [
    {
      type: 'NotificationCreated',
      data: { instanceId: I, webhookId: 'w1', sequence: 1, body, sourceEventIds: ['s1'], createdAt: later },
    },
  ];

  it('as `label` after the sequence when the instance has one', () => {
    spec
      .given([])
      .when(create('shop'))
      .then(made({ instanceId: I, sequence: 1, label: 'shop', state: { state: 'qr', since: t0 } }) as never);
  });

  it('and not at all when it has none', () => {
    spec
      .given([])
      .when(create(null))
      .then(made({ instanceId: I, sequence: 1, state: { state: 'qr', since: t0 } }) as never);
  });
});
