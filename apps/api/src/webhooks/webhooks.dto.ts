import { Limit, NotificationKindsParam, OptionalWebhookUrlParam, RequiredText, WebhookUrlParam } from '../http/param-rules';

export class WebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @WebhookUrlParam() webhookUrl!: string;
  /** The notification kinds (docs/api.md 8.4); absent (or a JSON null) chooses the default set. */
  @NotificationKindsParam() events?: string | null;
}

export class WebhookStatusDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}

/** rotateSigningSecret (docs/api.md 8.5). */
export class RotateSigningSecretDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}

export class WebhookLogsDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @Limit(100) limit?: string | number;
}

/** testWebhook (docs/api.md 8.6). */
export class TestWebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @OptionalWebhookUrlParam() webhookUrl?: string | null;
}
