import { workflowSpec } from '@gw/domain-core/testing';
import type { InboxEvent } from '@gw/domain-inbox';
import type { InstanceEvent } from '@gw/domain-instances';
import { GONE_REASON } from './notifications.decider';
import { notifierWorkflow, type NotifierInput } from './notifier.workflow';

const spec = workflowSpec(notifierWorkflow);
const I = 'i1';
const t0 = '2026-01-01T00:00:00.000Z';
const expiresAt = '2026-01-04T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const afterExpiry = '2026-01-05T00:00:00.000Z';
const url = 'https://receiver.example/hook';

const recorded = (event: InstanceEvent, now = t0): NotifierInput => ({
  type: 'InstanceEventRecorded',
  data: { event, sourceEventId: `${event.type}-${now}`, now },
});
const created = recorded({
  type: 'InstanceCreated',
  data: { instanceId: I, accountId: 'acct-ann', packageId: 'trial', tokenHash: 'th', createdAt: t0, expiresAt },
});
const secret = recorded({
  type: 'SigningSecretIssued',
  data: { instanceId: I, encryptedSecret: 'sealed', issuedAt: t0 },
});
const set = recorded({ type: 'WebhookSet', data: { instanceId: I, url, setAt: t0 } });
const cleared = (now = later) => recorded({ type: 'WebhookCleared', data: { instanceId: I, clearedAt: now } }, now);
const gone = recorded(
  { type: 'WebhookDisabledByReceiver', data: { instanceId: I, url, reason: GONE_REASON, disabledAt: later } },
  later,
);
const renewed = (renewedAt: string) =>
  recorded(
    {
      type: 'InstanceRenewed',
      data: { instanceId: I, packageId: 'monthly', renewedAt, expiresAt: '2026-02-05T00:00:00.000Z' },
    },
    renewedAt,
  );

const message = { id: 'm1', fromMe: false, type: 'chat', sealed: 'pd2.sealed-message', time: 1767225600 };
const ack = { id: 'm1', sealed: 'pd2.sealed-chat', status: 'read' as const, time: 1767225601 };
const traffic = (event: InboxEvent, sourceEventId = 'ev-1'): NotifierInput => ({
  type: 'TrafficRecorded',
  data: { sourceEventId, event },
});
const messageAt = (receivedAt: string) =>
  traffic({ type: 'MessageReceived', data: { instanceId: I, message, receivedAt } });
const ackAt = (receivedAt: string) =>
  traffic({ type: 'AckReceived', data: { instanceId: I, ack, receivedAt } }, 'ev-2');
const due = (now: string): NotifierInput => ({ type: 'AttemptDue', data: { instanceId: I, now } });

describe('the notifier workflow: recorded traffic', () => {
  it('notifies a message recorded while delivery is on for an active instance', () => {
    spec
      .given([created, secret, set])
      .when(messageAt(later))
      .then([{ type: 'Notify', data: { item: { sourceEventId: 'ev-1', message } } }]);
  });

  it('notifies an ack the same way', () => {
    spec
      .given([created, secret, set])
      .when(ackAt(later))
      .then([{ type: 'Notify', data: { item: { sourceEventId: 'ev-2', ack } } }]);
  });

  it('notifies nothing recorded before a URL was registered, after it was cleared, or after a 410', () => {
    spec.given([created]).when(messageAt(later)).then([]);
    spec.given([created, secret, set, cleared()]).when(messageAt(later)).then([]);
    spec.given([created, secret, set, gone]).when(messageAt(later)).then([]);
  });

  it('notifies nothing recorded after the instance expired, judged by when it was recorded', () => {
    spec.given([created, secret, set]).when(messageAt(afterExpiry)).then([]);
    spec
      .given([created, secret, set, renewed(afterExpiry)])
      .when(messageAt(afterExpiry))
      .then([{ type: 'Notify', data: { item: { sourceEventId: 'ev-1', message } } }]);
  });

  it('notifies nothing for an instance it does not know', () => {
    spec.given([]).when(messageAt(later)).then([]);
  });
});

describe('the notifier workflow: delivery switched off', () => {
  it('cancels what is pending when delivery is switched off or the receiver answered 410', () => {
    spec
      .given([created, secret, set])
      .when(cleared())
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'delivery was switched off', now: later } }]);
    spec
      .given([created, secret, set])
      .when(gone)
      .then([
        {
          type: 'CancelPending',
          data: { instanceId: I, reason: 'the receiver switched delivery off (410 Gone)', now: later },
        },
      ]);
  });

  it('cancels what the expiry left pending when an expired instance is renewed, and nothing on an early renewal', () => {
    spec
      .given([created, secret, set])
      .when(renewed(afterExpiry))
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'the instance expired', now: afterExpiry } }]);
    spec.given([created, secret, set]).when(renewed(later)).then([]);
  });

  it('does nothing for changes that leave delivery as it is', () => {
    spec.given([created]).when(secret).then([]);
    spec.given([created, secret]).when(set).then([]);
  });
});

describe('the notifier workflow: attempts', () => {
  it('sends a due notification to the URL registered now, with the sealed secret', () => {
    const moved = recorded(
      { type: 'WebhookSet', data: { instanceId: I, url: 'https://moved.example/hook', setAt: later } },
      later,
    );
    spec
      .given([created, secret, set, moved])
      .when(due(later))
      .then([
        {
          type: 'Send',
          data: { url: 'https://moved.example/hook', encryptedSigningSecrets: ['sealed'], sealedHeaders: null },
        },
      ]);
  });

  it('cancels instead of sending once delivery is off or the instance has expired, saying which', () => {
    spec
      .given([created, secret, set, cleared()])
      .when(due(later))
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'delivery is off', now: later } }]);
    spec
      .given([created, secret, set])
      .when(due(afterExpiry))
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'the instance expired', now: afterExpiry } }]);
    spec
      .given([])
      .when(due(later))
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'delivery is off', now: later } }]);
  });

  it('switches delivery off when the receiver answers 410 Gone, and only then', () => {
    const answered = (status: number): NotifierInput => ({
      type: 'ReceiverAnswered',
      data: { url, status, now: later, failingSince: null, disableAfterHours: 120 },
    });
    spec
      .given([created, secret, set])
      .when(answered(410))
      .then([{ type: 'DisableWebhookForReceiver', data: { url, reason: GONE_REASON, now: later } }]);
    for (const status of [200, 204, 301, 404, 429, 500, 0])
      spec.given([created, secret, set]).when(answered(status)).then([]);
  });
});

describe('the notifier workflow: self-service (docs/api.md 8.1, 8.4, 8.5)', () => {
  const withKinds = (...events: Array<'messages' | 'ownMessages' | 'acks' | 'instance'>) =>
    recorded({ type: 'WebhookSet', data: { instanceId: I, url, setAt: t0, events } });
  const own = traffic(
    { type: 'MessageReceived', data: { instanceId: I, message: { ...message, fromMe: true }, receivedAt: later } },
    'ev-3',
  );

  it('notifies only the kinds the owner chose, each judged by its own kind', () => {
    spec
      .given([created, secret, withKinds('ownMessages')])
      .when(own)
      .then([{ type: 'Notify', data: { item: { sourceEventId: 'ev-3', message: { ...message, fromMe: true } } } }]);
    spec
      .given([created, secret, withKinds('ownMessages')])
      .when(messageAt(later))
      .then([]);
    spec
      .given([created, secret, withKinds('messages', 'instance')])
      .when(own)
      .then([]);
    spec
      .given([created, secret, withKinds('messages')])
      .when(ackAt(later))
      .then([]);
    spec
      .given([created, secret, withKinds('acks')])
      .when(ackAt(later))
      .then([{ type: 'Notify', data: { item: { sourceEventId: 'ev-2', ack } } }]);
  });

  it('cancels what is pending when the instance is deleted, and notifies nothing after', () => {
    const deleted = recorded({ type: 'InstanceDeleted', data: { instanceId: I, deletedAt: later } }, later);
    spec
      .given([created, secret, set])
      .when(deleted)
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'the instance was deleted', now: later } }]);
    spec.given([created, secret, set, deleted]).when(messageAt(later)).then([]);
    spec
      .given([created, secret, set, deleted])
      .when(due(later))
      .then([{ type: 'CancelPending', data: { instanceId: I, reason: 'the instance was deleted', now: later } }]);
  });

  it('signs with the new secret and the one it replaced while the overlap lasts', () => {
    const rotated = recorded({
      type: 'SigningSecretRotated',
      data: { instanceId: I, encryptedSecret: 'sealed-2', rotatedAt: t0, previousValidUntil: later },
    });
    spec
      .given([created, secret, set, rotated])
      .when(due('2026-01-01T12:00:00.000Z'))
      .then([{ type: 'Send', data: { url, encryptedSigningSecrets: ['sealed-2', 'sealed'], sealedHeaders: null } }]);
    spec
      .given([created, secret, set, rotated])
      .when(due(later))
      .then([{ type: 'Send', data: { url, encryptedSigningSecrets: ['sealed-2'], sealedHeaders: null } }]);
  });
});
