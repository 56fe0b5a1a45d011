import { accountDecider, isAccountEvent, type AccountEvent, type AccountState } from '@gw/domain-accounts';
import { inboxIdentity, isInboxEvent, type InboxEvent } from '@gw/domain-inbox';
import { instanceDecider, isInstanceEvent, type InstanceEvent, type InstanceState } from '@gw/domain-instances';
import {
  isNotificationEvent,
  notificationsDecider,
  type NotificationEvent,
  type NotificationsState,
} from '@gw/domain-notifications';
import type { StreamModel } from './command-handler';
import { nameBasedId, newEventId } from './ids';

/** `account-{accountId}`: one account holder, named by the keyed hash of its address. */
export const accountStream: StreamModel<AccountEvent, AccountState> = {
  evolve: accountDecider.evolve,
  initialState: accountDecider.initialState,
  isEvent: isAccountEvent,
};

/** `instance-{id}`: one instance, its package, expiry and webhook. */
export const instanceStream: StreamModel<InstanceEvent, InstanceState> = {
  evolve: instanceDecider.evolve,
  initialState: instanceDecider.initialState,
  isEvent: isInstanceEvent,
};

/** `notifications-{id}`: an instance's notifications and their attempts. A notification is created
 * once: its creation's id derives from its webhook id, so a creation retried after a crash is
 * stored once, whoever retries it. A test attempt too (its webhook id is new per test): it is
 * appended without an expected revision, and its id is what keeps a retried append from storing
 * it twice. */
export const notificationsStream: StreamModel<NotificationEvent, NotificationsState> = {
  evolve: notificationsDecider.evolve,
  initialState: notificationsDecider.initialState,
  isEvent: isNotificationEvent,
  eventId: (event) => {
    if (event.type === 'NotificationCreated') return nameBasedId(`notification-created|${event.data.webhookId}`);
    if (event.type === 'TestNotificationAttempted') return nameBasedId(`test-attempted|${event.data.webhookId}`);
    return newEventId();
  },
};

/** `inbox-{id}`: an instance's incoming messages and acks, append-only; its state decides nothing.
 * Each is recorded once: its id derives from the message id (and the ack's status). */
export const inboxStream: StreamModel<InboxEvent, null> = {
  evolve: (state) => state,
  initialState: () => null,
  isEvent: isInboxEvent,
  eventId: (event) => nameBasedId(inboxIdentity(event)),
};
