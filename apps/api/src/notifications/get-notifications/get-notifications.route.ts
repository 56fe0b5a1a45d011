import { Codes } from '@gw/contract';
import type { NotificationOutcome } from '@gw/domain-notifications';
import { operation, route } from '../../http/operation';
import { arrayOf, integer, object, oneOfValues, text, timestamp } from '../../openapi/json-schema';
import { sequencedBody } from '../../openapi/notification-bodies';
import { GetNotificationsDto } from './get-notifications.dto';
import { GetNotificationsHandler } from './get-notifications.handler';
import { GetNotificationsQuery, type NotificationsResult } from './get-notifications.query';

type Notification = NotificationsResult['notifications'][number];
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
          body: sequencedBody,
        }),
        'ascending by sequence',
      ),
    }),
    refusals: [Codes.InstanceAuthFailed],
  },
});
