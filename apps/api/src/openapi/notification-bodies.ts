import type { OpenedBody } from '@gw/application';
import { ACK_STATUSES } from '@gw/domain-inbox';
import { CONNECTION_STATES } from '@gw/domain-instances';
import { testNotificationBody, type InstanceNotice, type TestNotificationBody } from '@gw/domain-notifications';
import {
  arrayOf,
  boolean,
  constant,
  integer,
  nullable,
  object,
  oneOf,
  oneOfValues,
  optional,
  text,
  timestamp,
  type Schema,
} from './json-schema';

// Every notification body a receiver gets (docs/api.md sections 6, 8.6 and 8.9), described once for
// the instance host's `webhooks` map and for getNotifications. Each schema is written against the
// type the notifier and testWebhook build the body as (json-schema.ts: it stops compiling when that
// type changes), and each example is checked against its schema (notification-bodies.spec.ts).

/** A body of the instance's sequence as the receiver gets it: personal fields null once erased. */
export type SequencedBody = OpenedBody<null>;
type BodyWith<K extends string> = Extract<SequencedBody, Record<K, unknown>>;

/** The fields of every body, the test's included: a field every body gains is one line here. */
const instanceFields = {
  instanceId: text('the instance the notification is about'),
};
/** The fields of every body in the instance's sequence (all but the test's): a field they all gain
 * is one line here. */
const sequencedFields = {
  ...instanceFields,
  sequence: integer("numbers the instance's notifications 1, 2, 3, … in the order they were created"),
  label: optional(text("the instance's label when the notification was made (13.1), absent when it had none")),
};

/** A message's or ack's personal field: null after an erasure (docs/api.md section 9). */
const personal = () => nullable(text());
const message = object<BodyWith<'messages'>['messages'][number]>({
  id: text(),
  chatId: personal(),
  from: personal(),
  fromMe: boolean(),
  senderName: personal(),
  type: text(),
  body: personal(),
  time: integer('Unix seconds'),
});
const ack = object<BodyWith<'ack'>['ack'][number]>({
  id: text(),
  chatId: personal(),
  status: oneOfValues(ACK_STATUSES),
  time: integer('Unix seconds'),
});
const notice = oneOf(
  object<Extract<InstanceNotice, { event: 'expiring' }>>({ event: constant('expiring'), expiresAt: timestamp() }),
  object<Extract<InstanceNotice, { event: 'renewed' }>>({
    event: constant('renewed'),
    packageid: text(),
    expiresAt: timestamp(),
  }),
);

/** One kind of notification body: its name in the `webhooks` map, what it is, its schema and examples. */
export interface NotificationBodyKind<T = unknown> {
  name: string;
  summary: string;
  description: string;
  schema: Schema<T>;
  examples: Record<string, T>;
}
const kind = <T>(body: NotificationBodyKind<T>): NotificationBodyKind<T> => body;

const INSTANCE_ID = '4f1c2e0a-6b7d-4c1e-9a3f-2d5b8e7c1a90';
const messages = kind<BodyWith<'messages'>>({
  name: 'messages',
  summary: 'Messages recorded for the instance (kinds `messages` and `ownMessages`)',
  description:
    'One or more messages recorded while the previous notification of the instance was on its way, in record order, at most `NOTIFICATION_BATCH_MAX`; never mixed with acks (docs/api.md section 6).',
  schema: object<BodyWith<'messages'>>({ ...sequencedFields, messages: arrayOf(message) }),
  examples: {
    message: {
      instanceId: INSTANCE_ID,
      sequence: 17,
      label: 'shop-42',
      messages: [
        {
          id: 'wamid.HBgM',
          chatId: '5511999999999@c.us',
          from: '5511999999999@c.us',
          fromMe: false,
          senderName: 'Ana',
          type: 'chat',
          body: 'Olá!',
          time: 1767225600,
        },
      ],
    },
  },
});
const acks = kind<BodyWith<'ack'>>({
  name: 'ack',
  summary: 'Delivery events of messages (kind `acks`)',
  description: 'One or more acks, batched as messages are; never mixed with messages (docs/api.md section 6).',
  schema: object<BodyWith<'ack'>>({ ...sequencedFields, ack: arrayOf(ack) }),
  examples: {
    read: {
      instanceId: INSTANCE_ID,
      sequence: 18,
      ack: [{ id: 'wamid.HBgM', chatId: '5511999999999@c.us', status: 'read', time: 1767225660 }],
    },
  },
});
const instanceNotices = kind<BodyWith<'instance'>>({
  name: 'instance',
  summary: 'Notices about the instance itself (kind `instance`, opt-in)',
  description:
    '`expiring` once at each of `EXPIRY_NOTICE_HOURS` before `expiresAt`, `renewed` after each renewal (docs/api.md 8.9).',
  schema: object<BodyWith<'instance'>>({ ...sequencedFields, instance: notice }),
  examples: {
    expiring: {
      instanceId: INSTANCE_ID,
      sequence: 9,
      instance: { event: 'expiring', expiresAt: '2026-03-04T10:00:00.000Z' },
    },
    renewed: {
      instanceId: INSTANCE_ID,
      sequence: 10,
      instance: { event: 'renewed', packageid: 'monthly', expiresAt: '2026-04-03T10:00:00.000Z' },
    },
  },
});
const stateNotices = kind<BodyWith<'state'>>({
  name: 'state',
  summary: "A change of the instance's connection state (kind `state`, opt-in)",
  description:
    "Each change of the state the gateway reports, alone in its notification; `since` equals getInstanceState's (docs/api.md 13.2).",
  schema: object<BodyWith<'state'>>({
    ...sequencedFields,
    state: object<BodyWith<'state'>['state']>({
      state: oneOfValues(CONNECTION_STATES),
      since: timestamp('when the instance entered this state'),
    }),
  }),
  examples: {
    qr: {
      instanceId: INSTANCE_ID,
      sequence: 11,
      label: 'shop-42',
      state: { state: 'qr', since: '2026-03-01T12:00:00.000Z' },
    },
  },
});
const test = kind<TestNotificationBody>({
  name: 'test',
  summary: 'A test notification, sent by testWebhook',
  description:
    'Sent once, when testWebhook is called: no sequence number, no retry, not listed by getNotifications; its `webhook-id` starts `test_` (docs/api.md 8.6).',
  schema: object<TestNotificationBody>({
    ...instanceFields,
    test: constant(true),
    at: timestamp('when the test was sent'),
  }),
  examples: { test: testNotificationBody(INSTANCE_ID, '2026-03-01T12:00:00.000Z') },
});

/** The kinds of the instance's sequence: a new kind is one entry here (the compiler refuses the
 * list below until it covers every member of SequencedBody). */
const SEQUENCED = [messages, acks, instanceNotices, stateNotices] as const;

/** A body of the instance's sequence, whichever kind (getNotifications shows them). */
export const sequencedBody: Schema<SequencedBody> = oneOf(...SEQUENCED.map((body) => body.schema));

/** Every kind of body, in the order the document lists them. */
export const NOTIFICATION_BODIES = [...SEQUENCED, test] as readonly NotificationBodyKind[];
