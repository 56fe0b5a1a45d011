import { Codes } from '@gw/contract';
import { operation, route, type HostName } from '../../http/operation';
import { kinds, signingSecret } from '../../openapi/answer-fields';
import { boolean, object, text } from '../../openapi/json-schema';
import { parseKindSet } from '../notification-kinds-param';
import { healthSchema, receiverOptionsSchema } from '../receiver-options-fields';
import { parseHeaders } from '../webhook-headers-param';
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
    // Switching off (an empty URL) takes none of the receiver's options: they were not checked.
    build: (p) =>
      p.webhookUrl === ''
        ? new ChangeWebhookCommand(p.instanceid, p.token, '', undefined, undefined, undefined)
        : new ChangeWebhookCommand(
            p.instanceid,
            p.token,
            p.webhookUrl,
            typeof p.events === 'string' ? parseKindSet(p.events) : undefined,
            typeof p.webhookHeaders === 'string' ? parseHeaders(p.webhookHeaders).pairs : undefined,
            p.signatureScheme === 'hmac' || p.signatureScheme === 'ed25519' ? p.signatureScheme : undefined,
          ),
  });

/** docs/api.md 4.4, 4.6, 8.4 and section 12. */
export const changeWebhook = operation({
  handler: ChangeWebhookHandler,
  routes: [webhookRoute('account', ['GET']), webhookRoute('instance', ['GET', 'POST'])],
  answer: {
    summary:
      "Registers the webhook URL, its event kinds and the receiver's options, or switches delivery off with an empty URL (4.4, 4.6, 8.4, 12)",
    fields: object<ChangeWebhookResult>({
      webhookUrl: text('as sent; "" when delivery was switched off'),
      enabled: boolean(),
      events: kinds,
      signingSecret,
      ...receiverOptionsSchema,
      health: healthSchema,
    }),
    refusals: [Codes.InstanceAuthFailed, Codes.InstanceExpired, Codes.WebhookUrlRefused, Codes.ConcurrentChange],
  },
});
