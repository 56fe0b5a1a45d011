import { Codes } from '@gw/contract';
import { ACK_STATUSES } from '@gw/domain-inbox';
import { CONNECTION_STATES } from '@gw/domain-instances';
import type { InstanceNotice, NotificationOutcome } from '@gw/domain-notifications';
import { operation, route } from '../../http/operation';
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
} from '../../openapi/json-schema';
import { GetNotificationsDto } from './get-notifications.dto';
import { GetNotificationsHandler } from './get-notifications.handler';
import { GetNotificationsQuery, type NotificationsResult } from './get-notifications.query';

type Notification = NotificationsResult['notifications'][number];
type Body = Notification['body'];
/** A message's or ack's personal field: null after an erasure (docs/api.md section 9). */
const personal = () => nullable(text());

const message = object<Extract<Body, { messages: unknown }>['messages'][number]>({
  id: text(),
  chatId: personal(),
  from: personal(),
  fromMe: boolean(),
  senderName: personal(),
  type: text(),
  body: personal(),
  time: integer('Unix seconds'),
});
const ack = object<Extract<Body, { ack: unknown }>['ack'][number]>({
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
const label = optional(text("the instance's label (13.1), absent when it has none"));
const envelope = { instanceId: text(), sequence: integer(), label };
const stateNotice = object<Extract<Body, { state: unknown }>['state']>({
  state: oneOfValues(CONNECTION_STATES),
  since: timestamp(),
});
const body: Schema<Body> = oneOf(
  object<Extract<Body, { messages: unknown }>>({ ...envelope, messages: arrayOf(message) }),
  object<Extract<Body, { ack: unknown }>>({ ...envelope, ack: arrayOf(ack) }),
  object<Extract<Body, { instance: unknown }>>({ ...envelope, instance: notice }),
  object<Extract<Body, { state: unknown }>>({ ...envelope, state: stateNotice }),
);
/** Every outcome, checked complete by the compiler. */
const outcomes: Record<NotificationOutcome, true> = {
  pending: true,
  delivered: true,
  deadLettered: true,
  cancelled: true,
};

/** docs/api.md 8.7. */
export const getNotifications = operation({
  handler: GetNotificationsHandler,
  routes: [
    route({
      name: 'getNotifications',
      host: 'instance',
      path: '/getNotifications',
      methods: ['GET', 'POST'],
      dto: GetNotificationsDto,
      // A JSON null is an absent parameter, as the form rules (IsOptional) treat it: the default.
      build: (p) =>
        new GetNotificationsQuery(
          p.instanceid,
          p.token,
          p.after == null ? 0 : Number(p.after),
          p.limit == null ? 100 : Number(p.limit),
        ),
    }),
  ],
  answer: {
    summary: "The instance's notifications after a sequence number, ascending (8.7)",
    fields: object<NotificationsResult>({
      lastSequence: integer('the highest sequence the instance has, 0 when none'),
      notifications: arrayOf(
        object<Notification>({
          sequence: integer(),
          webhookId: text(),
          createdAt: timestamp(),
          state: oneOfValues(Object.keys(outcomes) as NotificationOutcome[]),
          body,
        }),
        'ascending by sequence',
      ),
    }),
    refusals: [Codes.InstanceAuthFailed],
  },
});
