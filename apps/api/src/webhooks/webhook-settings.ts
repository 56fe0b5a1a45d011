import type { NotificationKind } from '@gw/domain-instances';

/** The receiver's options in force, as `webhook` and `getWebhookStatus` both answer them: an option
 * both show is one field here and one in `webhookSettings` (openapi/answer-fields.ts). */
export interface WebhookSettings {
  /** The kinds notified (docs/api.md 8.4), in canonical order; kept while no URL is registered. */
  events: NotificationKind[];
  signingSecret?: string;
}
