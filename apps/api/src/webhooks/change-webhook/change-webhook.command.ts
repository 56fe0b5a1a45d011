import { Command } from '@nestjs/cqrs';
import type { NotificationKind } from '@gw/domain-instances';
import type { WebhookSettings } from '../webhook-settings';

export class ChangeWebhookCommand extends Command<ChangeWebhookResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    /** A URL to register, or '' to switch delivery off. */
    readonly webhookUrl: string,
    /** The kinds to notify (docs/api.md 8.4); undefined chooses the default set. Ignored with an empty URL. */
    readonly events?: readonly NotificationKind[],
  ) {
    super();
  }
}

export interface ChangeWebhookResult extends WebhookSettings {
  webhookUrl: string;
  enabled: boolean;
}
