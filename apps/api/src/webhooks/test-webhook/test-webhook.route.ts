import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { boolean, integer, object, text } from '../../openapi/json-schema';
import { TestWebhookCommand, type TestWebhookResult } from './test-webhook.command';
import { TestWebhookDto } from './test-webhook.dto';
import { TestWebhookHandler } from './test-webhook.handler';

/** docs/api.md 8.6. */
export const testWebhook = operation({
  handler: TestWebhookHandler,
  routes: [
    route({
      name: 'testWebhook',
      host: 'instance',
      path: '/testWebhook',
      methods: ['GET', 'POST'],
      dto: TestWebhookDto,
      // Absent, a JSON null or empty: the registered URL (docs/api.md 8.6).
      build: (p) => new TestWebhookCommand(p.instanceid, p.token, p.webhookUrl ?? ''),
    }),
  ],
  answer: {
    summary:
      'Sends one signed test notification now and tells how it went (8.6); one per instance and TEST_WEBHOOK_CONCURRENCY in all may be in flight, beyond which 0010 answers before anything is sent',
    fields: object<TestWebhookResult>({
      delivered: boolean('the receiver answered 2xx'),
      status: integer('0 when no answer came'),
      durationMs: integer(),
      error: text(),
    }),
    refusals: [
      Codes.InstanceAuthFailed,
      Codes.InstanceExpired,
      Codes.WebhookUrlRefused,
      Codes.DeliveryOff,
      Codes.ConcurrentChange,
    ],
  },
});
