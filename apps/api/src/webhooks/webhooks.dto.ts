import { Limit, RequiredText, WebhookUrlParam } from '../http/param-rules';

export class WebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @WebhookUrlParam() webhookUrl!: string;
}

export class WebhookStatusDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}

export class WebhookLogsDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @Limit(100) limit?: string | number;
}
