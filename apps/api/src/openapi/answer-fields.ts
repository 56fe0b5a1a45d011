import { CONNECTION_STATES, NOTIFICATION_KINDS } from '@gw/domain-instances';
import { arrayOf, nullable, oneOfValues, optional, text } from './json-schema';

/** Fields that several operations answer with, described once. */
export const kinds = arrayOf(
  oneOfValues(NOTIFICATION_KINDS),
  'the notification kinds in force, in canonical order (docs/api.md 8.4)',
);
export const signingSecret = optional(
  text('the whsec_ signing secret; present once one exists (docs/api.md section 6)'),
);
export const instanceStatus = oneOfValues(['active', 'expired'] as const, 'active while now < expiresAt');
export const instanceLabel = nullable(text("the owner's label (docs/api.md 13.1), null when none"));
export const connectionState = nullable(
  oneOfValues(CONNECTION_STATES, 'the connection state last reported by the gateway (13.2), null before any'),
);
