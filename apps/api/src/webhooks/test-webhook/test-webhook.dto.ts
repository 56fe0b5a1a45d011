import { OptionalWebhookUrlParam, RequiredText } from '../../http/param-rules';

/** docs/api.md 8.6. */
export class TestWebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @OptionalWebhookUrlParam() webhookUrl?: string | null;
}
