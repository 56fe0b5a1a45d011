import { workflowSpec } from '@gw/domain-core/testing';
import type { InstanceEvent, NotificationKind } from '@gw/domain-instances';
import { nextNoticeAt, type NoticeLedger } from './instance-notices';
import { notificationsDecider } from './notifications.decider';
import {
  evolveNotifierState,
  initialNotifierState,
  notifierWorkflow,
  type NotifierInput,
  type NotifierOutput,
} from './notifier.workflow';

/** docs/api.md 8.9: instance notices are decided from the clock, in the notifier's workflow. */
const spec = workflowSpec(notifierWorkflow);
const I = 'i1';
const t0 = '2026-01-01T00:00:00.000Z';
const expiresAt = '2026-01-04T00:00:00.000Z';
const renewedTo = '2026-02-03T00:00:00.000Z';
const url = 'https://receiver.example/hook';
const HOURS = [72, 24, 0.5];

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
const kinds = (...events: NotificationKind[]) =>
  recorded({ type: 'WebhookSet', data: { instanceId: I, url, setAt: t0, events } });
const chosen = kinds('messages', 'instance');
const renewed = (renewedAt: string, to = renewedTo) =>
  recorded(
    { type: 'InstanceRenewed', data: { instanceId: I, packageId: 'monthly', renewedAt, expiresAt: to } },
    renewedAt,
  );
const tick = (now: string, notified: NoticeLedger | null = null, hours = HOURS): NotifierInput => ({
  type: 'ClockTicked',
  data: { now, notified, expiryNoticeHours: hours },
});
const expiring = (key: string, at = expiresAt): NotifierOutput => ({
  type: 'NotifyInstance',
  data: { key, notice: { event: 'expiring', expiresAt: at } },
});
const renewalAt = (renewedAt: string, to = renewedTo): NotifierOutput => ({
  type: 'NotifyInstance',
  data: { key: `renewed@${renewedAt}`, notice: { event: 'renewed', packageid: 'monthly', expiresAt: to } },
});
const renewal = renewalAt('2026-01-02T00:00:00.000Z');

describe('instance notices: expiring', () => {
  it('makes a notice once the instance enters the last h hours, for each mark reached, in time order', () => {
    spec.given([created, secret, chosen]).when(tick('2026-01-02T23:59:59.999Z')).then([]);
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T00:00:00.000Z'))
      .then([expiring('expiring@24')]);
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T23:45:00.000Z'))
      .then([expiring('expiring@24'), expiring('expiring@0.5')]);
  });

  it('takes decimal hours: 0.001 h is 3.6 s before expiry', () => {
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T23:59:56.399Z', null, [0.001]))
      .then([]);
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T23:59:56.400Z', null, [0.001]))
      .then([expiring('expiring@0.001')]);
  });

  it('never sends a notice whose moment had passed when the instance was created', () => {
    // 72 h before expiry is the creation itself; 100 h is before it.
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-01T00:00:01.000Z', null, [100, 72]))
      .then([]);
  });

  it('does not make again a notice the notifications state records for the same expiry', () => {
    const ledger = { expiresAt, keys: ['expiring@24'] };
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T23:45:00.000Z', ledger))
      .then([expiring('expiring@0.5')]);
    spec
      .given([created, secret, chosen])
      .when(tick('2026-01-03T23:45:00.000Z', { expiresAt, keys: ['expiring@24', 'expiring@0.5'] }))
      .then([]);
  });

  it('makes nothing when the instance kind is not chosen, delivery is off, or the instance expired or was deleted', () => {
    const at = '2026-01-03T12:00:00.000Z';
    spec
      .given([created, secret, kinds('messages', 'ownMessages', 'acks')])
      .when(tick(at))
      .then([]);
    spec.given([created, secret]).when(tick(at)).then([]);
    spec
      .given([created, secret, chosen, recorded({ type: 'WebhookCleared', data: { instanceId: I, clearedAt: t0 } })])
      .when(tick(at))
      .then([]);
    spec.given([created, secret, chosen]).when(tick('2026-01-04T00:00:00.000Z')).then([]);
    spec
      .given([created, secret, chosen, recorded({ type: 'InstanceDeleted', data: { instanceId: I, deletedAt: t0 } })])
      .when(tick(at))
      .then([]);
  });
});

describe('instance notices: renewals', () => {
  it('announces each renewal, then the marks of the new expiry', () => {
    spec
      .given([created, secret, chosen, renewed('2026-01-02T00:00:00.000Z')])
      .when(tick('2026-01-02T00:00:00.000Z'))
      .then([renewal]);
    const announced = { expiresAt, keys: [], lastRenewal: '2026-01-02T00:00:00.000Z' };
    spec
      .given([created, secret, chosen, renewed('2026-01-02T00:00:00.000Z')])
      .when(tick('2026-02-02T00:00:00.000Z', announced))
      .then([expiring('expiring@72', renewedTo), expiring('expiring@24', renewedTo)]);
  });

  it('announces every renewal when several came before a notice was made, oldest first, each once', () => {
    const second = '2026-03-05T00:00:00.000Z';
    const history = [
      created,
      secret,
      chosen,
      renewed('2026-01-02T00:00:00.000Z'),
      renewed('2026-01-02T00:00:00.500Z', second),
    ];
    spec
      .given(history)
      .when(tick('2026-01-02T00:00:01.000Z'))
      .then([renewal, renewalAt('2026-01-02T00:00:00.500Z', second)]);
    spec
      .given(history)
      .when(tick('2026-01-02T00:00:01.000Z', { expiresAt, keys: [], lastRenewal: '2026-01-02T00:00:00.000Z' }))
      .then([renewalAt('2026-01-02T00:00:00.500Z', second)]);
    spec
      .given(history)
      .when(tick('2026-01-02T00:00:01.000Z', { expiresAt, keys: [], lastRenewal: '2026-01-02T00:00:00.500Z' }))
      .then([]);
  });

  it('resets which notices are due: a mark notified before the renewal is due again for the new expiry', () => {
    const before = { expiresAt, keys: ['expiring@24'] };
    const renewalThen = renewalAt('2026-01-03T06:00:00.000Z');
    spec
      .given([created, secret, chosen, renewed('2026-01-03T06:00:00.000Z')])
      .when(tick('2026-01-03T06:00:01.000Z', before))
      .then([renewalThen]);
    spec
      .given([created, secret, chosen, renewed('2026-01-03T06:00:00.000Z')])
      .when(tick('2026-02-02T00:00:00.000Z', before))
      .then([renewalThen, expiring('expiring@72', renewedTo), expiring('expiring@24', renewedTo)]);
  });

  it('does not send a mark already passed when the instance was renewed', () => {
    // Renewed at 2026-01-03T06:00 up to 2026-01-04T06:00: the 24 h mark is the renewal itself, the 72 h one before it.
    const to = '2026-01-04T06:00:00.000Z';
    const notified = { expiresAt: to, keys: [], lastRenewal: '2026-01-03T06:00:00.000Z' };
    spec
      .given([created, secret, chosen, renewed('2026-01-03T06:00:00.000Z', to)])
      .when(tick('2026-01-04T05:40:00.000Z', notified))
      .then([expiring('expiring@0.5', to)]);
  });

  it('does not announce a renewal made while the kind was not chosen or delivery was off', () => {
    spec
      .given([created, secret, kinds('messages'), renewed('2026-01-02T00:00:00.000Z'), chosen])
      .when(tick('2026-01-02T00:00:01.000Z'))
      .then([]);
  });
});

describe('instance notices: the ledger and the timer', () => {
  const state = [created, secret, chosen].reduce(
    (s, input) => notifierWorkflow.evolve(s, input),
    notifierWorkflow.initialState(),
  );

  it('are made once per key and expiry by the notifications decider, however often asked', () => {
    const notice = {
      webhookId: 'msg_n1',
      content: { instance: { event: 'expiring' as const, expiresAt } },
      sourceEventIds: [],
      noticeKey: 'expiring@24',
    };
    const command = { type: 'CreateNotifications' as const, data: { instanceId: I, notifications: [notice], now: t0 } };
    const first = notificationsDecider.decide(command, notificationsDecider.initialState());
    expect(first).toEqual([
      {
        type: 'NotificationCreated',
        data: {
          instanceId: I,
          webhookId: 'msg_n1',
          sequence: 1,
          body: { instanceId: I, sequence: 1, instance: notice.content.instance },
          sourceEventIds: [],
          noticeKey: 'expiring@24',
          createdAt: t0,
        },
      },
    ]);
    const after = first.reduce(notificationsDecider.evolve, notificationsDecider.initialState());
    expect(after.notices).toEqual({ expiresAt, keys: ['expiring@24'] });
    expect(notificationsDecider.decide(command, after)).toEqual([]);
  });

  it('records renewals by their moment: one announced, or an older one, is not made again', () => {
    const notice = (renewedAt: string) => ({
      webhookId: `msg_${renewedAt}`,
      content: { instance: { event: 'renewed' as const, packageid: 'monthly', expiresAt: renewedTo } },
      sourceEventIds: [],
      noticeKey: `renewed@${renewedAt}`,
    });
    const create = (renewedAt: string) => ({
      type: 'CreateNotifications' as const,
      data: { instanceId: I, notifications: [notice(renewedAt)], now: t0 },
    });
    const after = notificationsDecider
      .decide(create('2026-01-02T00:00:01.000Z'), notificationsDecider.initialState())
      .reduce(notificationsDecider.evolve, notificationsDecider.initialState());
    expect(after.notices?.lastRenewal).toBe('2026-01-02T00:00:01.000Z');
    expect(notificationsDecider.decide(create('2026-01-02T00:00:01.000Z'), after)).toEqual([]);
    expect(notificationsDecider.decide(create('2026-01-02T00:00:00.000Z'), after)).toEqual([]);
    expect(notificationsDecider.decide(create('2026-01-02T00:00:02.000Z'), after)).toHaveLength(1);
  });

  it('wakes the notifier at the next open mark, and not at all when nothing is to come', () => {
    expect(nextNoticeAt(state.instance, state.period, null, t0, HOURS)).toBe(Date.parse('2026-01-03T00:00:00.000Z'));
    expect(nextNoticeAt(state.instance, state.period, { expiresAt, keys: ['expiring@24'] }, t0, HOURS)).toBe(
      Date.parse('2026-01-03T23:30:00.000Z'),
    );
    expect(
      nextNoticeAt(state.instance, state.period, { expiresAt, keys: ['expiring@24', 'expiring@0.5'] }, t0, HOURS),
    ).toBeNull();
    const unchosen = evolveNotifierState(initialNotifierState(), (created.data as { event: InstanceEvent }).event);
    expect(nextNoticeAt(unchosen.instance, unchosen.period, null, t0, HOURS)).toBeNull();
  });
});
