import { Codes } from '@gw/contract';
import { operation, route, type HostName } from '../../http/operation';
import { webhookSettings } from '../../openapi/answer-fields';
import { boolean, object, text } from '../../openapi/json-schema';
import { parseKindSet } from '../notification-kinds-param';
import { ChangeWebhookCommand, type ChangeWebhookResult } from './change-webhook.command';
import { ChangeWebhookDto } from './change-webhook.dto';
import { ChangeWebhookHandler } from './change-webhook.handler';

/** The same operation on both public hosts (docs/api.md 4.4 and 4.6). */
const webhookRoute = (host: HostName, methods: readonly string[]) =>
  route({
    name: 'changeWebhook',
    host,
    path: '/webhook',
    methods,
    dto: ChangeWebhookDto,
    build: (p) =>
      new ChangeWebhookCommand(
        p.instanceid,
        p.token,
        p.webhookUrl,
        typeof p.events === 'string' ? parseKindSet(p.events) : undefined,
      ),
  });

/** docs/api.md 4.4, 4.6 and 8.4. */
export const changeWebhook = operation({
  handler: ChangeWebhookHandler,
  routes: [webhookRoute('account', ['GET']), webhookRoute('instance', ['GET', 'POST'])],
  answer: {
    summary:
      'Registers the webhook URL and its event kinds, or switches delivery off with an empty URL (4.4, 4.6, 8.4)',
    fields: object<ChangeWebhookResult>({
      webhookUrl: text('as sent; "" when delivery was switched off'),
      enabled: boolean(),
      ...webhookSettings,
    }),
    refusals: [Codes.InstanceAuthFailed, Codes.InstanceExpired, Codes.WebhookUrlRefused, Codes.ConcurrentChange],
  },
});
