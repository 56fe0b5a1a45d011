import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { instanceStatus, kinds, signingSecret } from '../../openapi/answer-fields';
import { boolean, object, optional, text } from '../../openapi/json-schema';
import { healthSchema, receiverOptionsSchema } from '../receiver-options-fields';
import { GetWebhookStatusDto } from './get-webhook-status.dto';
import { GetWebhookStatusHandler } from './get-webhook-status.handler';
import { GetWebhookStatusQuery, type WebhookStatusResult } from './get-webhook-status.query';

/** docs/api.md 4.5. */
export const getWebhookStatus = operation({
  handler: GetWebhookStatusHandler,
  routes: [
    route({
      name: 'getWebhookStatus',
      host: 'instance',
      path: '/getWebhookStatus',
      methods: ['GET', 'POST'],
      dto: GetWebhookStatusDto,
      build: (p) => new GetWebhookStatusQuery(p.instanceid, p.token),
    }),
  ],
  answer: {
    summary:
      "The instance's webhook URL, event kinds, options, delivery state, endpoint health and signing secret (4.5, 12)",
    fields: object<WebhookStatusResult>({
      webhookUrl: text('"" when none is registered'),
      enabled: boolean('true only while a URL is registered and the instance is active'),
      instanceStatus,
      events: kinds,
      disabledReason: optional(
        text('why delivery was switched off: the receiver answered 410 Gone, or "failing" (section 12)'),
      ),
      signingSecret,
      ...receiverOptionsSchema,
      health: healthSchema,
    }),
    refusals: [Codes.InstanceAuthFailed],
  },
});
