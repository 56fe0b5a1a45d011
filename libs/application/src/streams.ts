import { accountDecider, accountStreamName, isAccountEvent } from '@gw/domain-accounts';
import { inboxDecider, inboxIdentity, inboxStreamName, isInboxEvent } from '@gw/domain-inbox';
import { instanceDecider, instanceStreamName, isInstanceEvent, type InstanceEvent } from '@gw/domain-instances';
import { isNotificationEvent, notificationsDecider, notificationsStreamName } from '@gw/domain-notifications';
import type { RequiredStream } from '@gw/event-store';
import { aggregate } from './aggregate';
import { nameBasedId, newEventId, timeOrderedNameBasedId } from './ids';

/** `account-{accountId}`: one account holder, named by the keyed hash of its address. */
export const accountAggregate = aggregate({
  decider: accountDecider,
  streamName: accountStreamName,
  isEvent: isAccountEvent,
});

/** `instance-{id}`: one instance, its package, expiry and webhook. */
export const instanceAggregate = aggregate({
  decider: instanceDecider,
  streamName: instanceStreamName,
  isEvent: isInstanceEvent,
});

/** The events that end an instance's stream: its deletion, always its last event. */
const INSTANCE_ENDED_BY: ReadonlyArray<InstanceEvent['type']> = ['InstanceDeleted'];

/** What a write for an instance requires of the store (AppendOptions.requires): that the instance
 * exists and was not deleted. The embedded store checks it in the write's own transaction. */
export function liveInstance(instanceId: string): RequiredStream {
  return { streamName: instanceStreamName(instanceId), endedBy: INSTANCE_ENDED_BY };
}

/** `notifications-{id}`: an instance's notifications and their attempts. A notification is created
 * once: its creation's id derives from its webhook id and its creation time, so that an append of
 * it retried after its answer was lost stores it once (a creation decided again, after a crash say,
 * is refused by its expected revision and then found in the stream), and creations made one after
 * the other share the store's id index's last page. A test attempt is appended without an expected
 * revision: its id, from its webhook id (new per test), is what keeps a retried append from storing
 * it twice. */
export const notificationsAggregate = aggregate({
  decider: notificationsDecider,
  streamName: notificationsStreamName,
  isEvent: isNotificationEvent,
  eventId: (event) => {
    if (event.type === 'NotificationCreated')
      return timeOrderedNameBasedId(event.data.createdAt, `notification-created|${event.data.webhookId}`);
    if (event.type === 'TestNotificationAttempted') return nameBasedId(`test-attempted|${event.data.webhookId}`);
    return newEventId();
  },
});

/** `inbox-{id}`: an instance's incoming messages and acks, append-only; its state decides nothing.
 * Each is recorded once: its id derives from the message id (and the ack's status). */
export const inboxAggregate = aggregate({
  decider: inboxDecider,
  streamName: inboxStreamName,
  isEvent: isInboxEvent,
  eventId: (event) => nameBasedId(inboxIdentity(event)),
});

// The models alone, for reads (readState) and for handleCommand's callers that decide themselves.
/** How an account's stream folds (readState). */
export const accountStream = accountAggregate.model;
/** How an instance's stream folds (readState). */
export const instanceStream = instanceAggregate.model;
/** How an instance's notifications stream folds (readState). */
export const notificationsStream = notificationsAggregate.model;
/** How an instance's inbox stream folds (readState). */
export const inboxStream = inboxAggregate.model;
