import { addHours, assertNever, isBefore, maxIso, type Workflow } from '@gw/domain-core';
import type { InboxEvent } from '@gw/domain-inbox';
import {
  deliveryEnabled,
  evolveInstance,
  initialInstanceState,
  instanceStatus,
  signingSecretsAt,
  type DisableWebhookForFailing,
  type DisableWebhookForReceiver,
  type NotificationKind,
  type InstanceEvent,
  type InstanceState,
} from '@gw/domain-instances';
import {
  dueNotices,
  evolveNoticePeriod,
  type InstanceNotice,
  type NoticeLedger,
  type NoticePeriod,
} from './instance-notices';
import type { NotifiableItem } from './notification-batches';
import type { StateNotice } from './notification.events';
import { GONE_REASON, type CancelPending } from './notifications.decider';

/**
 * What the notifier reacts to, for one instance: its instance events and its recorded traffic as
 * they come from the log, and the moments of delivery (an attempt is due; a receiver answered).
 * `now` is the notifier's clock, passed in so that the policy stays a pure function.
 */
export type NotifierInput =
  | { type: 'InstanceEventRecorded'; data: { event: InstanceEvent; sourceEventId: string; now: string } }
  | { type: 'TrafficRecorded'; data: { sourceEventId: string; event: InboxEvent } }
  | { type: 'AttemptDue'; data: { instanceId: string; now: string } }
  /** `failingSince`: when the instance's current run of failed attempts began (null: the last one
   * succeeded); `disableAfterHours`: WEBHOOK_DISABLE_AFTER_HOURS (0: never). */
  | {
      type: 'ReceiverAnswered';
      data: { url: string; status: number; now: string; failingSince: string | null; disableAfterHours: number };
    }
  /** Time passed: `now` may have reached a notice's moment (docs/api.md 8.9). `notified` is the ledger
   * of the instance's notifications state, `expiryNoticeHours` EXPIRY_NOTICE_HOURS. */
  | { type: 'ClockTicked'; data: { now: string; notified: NoticeLedger | null; expiryNoticeHours: readonly number[] } };

/** What the notifier is to do about it. */
export type NotifierOutput =
  /** Make this traffic into a notification (alone or batched). */
  | { type: 'Notify'; data: { item: NotifiableItem } }
  /** Make this instance notice into a notification of its own, once per `key` and expiry. */
  | { type: 'NotifyInstance'; data: { key: string; notice: InstanceNotice } }
  /** Cancel every pending notification of the instance (a command of the notifications decider). */
  | CancelPending
  /** Send the due notification to this URL, signed with these (sealed) secrets, the current first,
   * with the receiver's own headers (sealed; null when none). */
  | { type: 'Send'; data: { url: string; encryptedSigningSecrets: string[]; sealedHeaders: string | null } }
  /** Switch the instance's delivery off: its receiver answered 410 Gone (an instance command). */
  | DisableWebhookForReceiver
  /** Switch it off: the receiver kept failing for WEBHOOK_DISABLE_AFTER_HOURS (an instance command). */
  | DisableWebhookForFailing;

/** What the notifier knows of an instance: its state as the log says, and the period its notices are
 * judged in (docs/api.md 8.9). */
export interface NotifierState {
  instance: InstanceState;
  period: NoticePeriod | null;
  /** When a URL was last registered (or delivery switched back on): failures before it do not count
   * towards WEBHOOK_DISABLE_AFTER_HOURS (section 12). Null before the first. */
  setAt: string | null;
}

/** The notifier's view of an instance before it has seen any of its events. */
export const initialNotifierState = (): NotifierState => ({
  instance: initialInstanceState(),
  period: null,
  setAt: null,
});

/** Folds an instance event into what the notifier knows of the instance. */
export function evolveNotifierState(state: NotifierState, event: InstanceEvent): NotifierState {
  const instance = evolveInstance(state.instance, event);
  return {
    instance,
    period: evolveNoticePeriod(state.period, event, instance),
    setAt: event.type === 'WebhookSet' ? event.data.setAt : state.setAt,
  };
}

/**
 * The notifier's policy as a workflow (docs/api.md section 6): traffic recorded while delivery is on for
 * an active instance is notified; switching delivery off, a 410, or an expiry cancels what is
 * pending; an attempt goes only while delivery is on; as time passes, the instance notices of 8.9 that
 * are due and not made yet are made. The state is the instance as the log says.
 */
export const notifierWorkflow: Workflow<NotifierInput, NotifierOutput, NotifierState> = {
  initialState: initialNotifierState,

  evolve(state: NotifierState, input: NotifierInput): NotifierState {
    return input.type === 'InstanceEventRecorded' ? evolveNotifierState(state, input.data.event) : state;
  },

  decide(input: NotifierInput, { instance: state, period, setAt }: NotifierState): NotifierOutput[] {
    switch (input.type) {
      case 'InstanceEventRecorded': {
        const stateChange = notifiedStateChange(state, input.data.event);
        if (stateChange)
          return [{ type: 'Notify', data: { item: { sourceEventId: input.data.sourceEventId, state: stateChange } } }];
        const reason = switchedOffBy(state, input.data.event);
        return reason && state.status === 'created' ? [cancel(state.instanceId, reason, input.data.now)] : [];
      }
      case 'TrafficRecorded': {
        const { event, sourceEventId } = input.data;
        // Whether it is notified is judged at the moment it was recorded, not when the notifier sees it.
        if (state.status !== 'created' || !deliveryEnabled(state, event.data.receivedAt)) return [];
        // Only the kinds the owner chose are notified (docs/api.md 8.4), as chosen when it was recorded.
        if (!state.events.includes(kindOf(event))) return [];
        const item: NotifiableItem =
          event.type === 'MessageReceived'
            ? { sourceEventId, message: event.data.message }
            : { sourceEventId, ack: event.data.ack };
        return [{ type: 'Notify', data: { item } }];
      }
      case 'AttemptDue': {
        const { instanceId, now } = input.data;
        const secrets = state.status === 'created' ? signingSecretsAt(state, now) : [];
        if (state.status === 'created' && deliveryEnabled(state, now) && secrets.length > 0) {
          const sealedHeaders = state.webhookHeaders.sealed;
          return [{ type: 'Send', data: { url: state.webhookUrl, encryptedSigningSecrets: secrets, sealedHeaders } }];
        }
        if (state.status === 'deleted') return [cancel(instanceId, DELETED_REASON, now)];
        const expired = state.status === 'created' && instanceStatus(state.expiresAt, now) === 'expired';
        return [cancel(instanceId, expired ? 'the instance expired' : 'delivery is off', now)];
      }
      case 'ReceiverAnswered': {
        const { url, status, now, failingSince, disableAfterHours } = input.data;
        if (status === 410) return [{ type: 'DisableWebhookForReceiver', data: { url, reason: GONE_REASON, now } }];
        if (failingSince === null || disableAfterHours <= 0) return [];
        // Failures before the URL was last registered belong to the time before it.
        const since = setAt === null ? failingSince : maxIso(failingSince, setAt);
        if (isBefore(now, addHours(since, disableAfterHours))) return [];
        return [{ type: 'DisableWebhookForFailing', data: { url, failingSince: since, now } }];
      }
      case 'ClockTicked': {
        const { now, notified, expiryNoticeHours } = input.data;
        return dueNotices(state, period, notified, now, expiryNoticeHours).map((due) => ({
          type: 'NotifyInstance',
          data: due,
        }));
      }
      default:
        return assertNever(input);
    }
  },
};

const DELETED_REASON = 'the instance was deleted';

/** The change of connection state an instance event notifies (docs/api.md 13.2): a reported state,
 * while delivery is on and the owner chose `state`, judged when it was recorded. */
function notifiedStateChange(before: InstanceState, event: InstanceEvent): StateNotice | undefined {
  if (event.type !== 'InstanceStateReported' || before.status !== 'created') return undefined;
  if (!deliveryEnabled(before, event.data.reportedAt) || !before.events.includes('state')) return undefined;
  return { state: event.data.state, since: event.data.since };
}

/** The kind a recorded item is notified as. */
function kindOf(event: InboxEvent): NotificationKind {
  if (event.type === 'AckReceived') return 'acks';
  return event.data.message.fromMe ? 'ownMessages' : 'messages';
}

const cancel = (instanceId: string, reason: string, now: string): CancelPending => ({
  type: 'CancelPending',
  data: { instanceId, reason, now },
});

/** Why an instance event switches delivery off, judged on the state before it; null when it does not. */
function switchedOffBy(before: InstanceState, event: InstanceEvent): string | null {
  switch (event.type) {
    case 'WebhookCleared':
      return 'delivery was switched off';
    case 'WebhookDisabledByReceiver':
      return 'the receiver switched delivery off (410 Gone)';
    case 'WebhookDisabledForFailing':
      return 'delivery was switched off: the receiver kept failing';
    case 'InstanceDeleted':
      return DELETED_REASON;
    case 'InstanceRenewed':
      // A renewal after expiry: the expiry cancelled what was pending, even if no attempt noticed it.
      return before.status === 'created' && instanceStatus(before.expiresAt, event.data.renewedAt) === 'expired'
        ? 'the instance expired'
        : null;
    default:
      return null;
  }
}
