import { Codes } from '@gw/contract';
import type { DeliveryAttemptRow } from '@gw/projections';
import { operation, route } from '../../http/operation';
import { arrayOf, boolean, integer, nullable, object, text, timestamp } from '../../openapi/json-schema';
import { GetWebhookLogsDto } from './get-webhook-logs.dto';
import { GetWebhookLogsHandler } from './get-webhook-logs.handler';
import { GetWebhookLogsQuery, type WebhookLogsResult } from './get-webhook-logs.query';

const attempt = object<DeliveryAttemptRow>({
  at: timestamp(),
  sequence: nullable(integer('null for a test notification')),
  webhookId: text(),
  status: integer("the receiver's HTTP status, 0 when no answer came"),
  error: text('why no answer came: timeout, refused, reset, TLS, address not allowed; "" otherwise'),
  durationMs: integer(),
  nextAttemptAt: nullable(timestamp('null when no retry is scheduled')),
  test: boolean(),
});

/** docs/api.md 4.8. */
export const getWebhookLogs = operation({
  handler: GetWebhookLogsHandler,
  routes: [
    route({
      name: 'getWebhookLogs',
      host: 'instance',
      path: '/getWebhookLogs',
      methods: ['GET', 'POST'],
      dto: GetWebhookLogsDto,
      // A JSON null is an absent limit, as the form rules (IsOptional) treat it: the default, not 0.
      build: (p) =>
        new GetWebhookLogsQuery(
          p.instanceid,
          p.token,
          p.limit === undefined || p.limit === null ? 20 : Number(p.limit),
        ),
    }),
  ],
  answer: {
    summary: 'The latest delivery attempts, newest first (4.8)',
    fields: object<WebhookLogsResult>({ attempts: arrayOf(attempt, 'newest first') }),
    refusals: [Codes.InstanceAuthFailed],
  },
});
