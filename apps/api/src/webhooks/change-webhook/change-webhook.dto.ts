import { NotificationKindsParam, RequiredText, WebhookUrlParam } from '../../http/param-rules';

/** docs/api.md 4.4, 4.6 and 8.4. */
export class ChangeWebhookDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
  @WebhookUrlParam() webhookUrl!: string;
  /** The notification kinds (docs/api.md 8.4); absent (or a JSON null) chooses the default set. */
  @NotificationKindsParam() events?: string | null;
}
