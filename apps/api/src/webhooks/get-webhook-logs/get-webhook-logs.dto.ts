import { Limit, RequiredText } from '../../http/param-rules';

/** docs/api.md 4.8. */
export class GetWebhookLogsDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @Limit(100) limit?: string | number;
}
