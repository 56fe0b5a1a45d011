import { NOTIFICATION_KINDS } from '@gw/domain-instances';
import { arrayOf, oneOfValues, optional, text } from './json-schema';

/** Fields that several operations answer with, described once. */
export const kinds = arrayOf(
  oneOfValues(NOTIFICATION_KINDS),
  'the notification kinds in force, in canonical order (docs/api.md 8.4)',
);
export const signingSecret = optional(
  text('the whsec_ signing secret; present once one exists (docs/api.md section 6)'),
);
export const instanceStatus = oneOfValues(['active', 'expired'] as const, 'active while now < expiresAt');
/** The receiver's options in force, as `webhook` and `getWebhookStatus` both answer them
 * (webhooks/webhook-settings.ts): an option both show is one line here. */
export const webhookSettings = { events: kinds, signingSecret };
