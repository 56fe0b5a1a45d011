import type { JsonSchema } from './json-schema';
import { NOTIFICATION_BODIES, type NotificationBodyKind } from './notification-bodies';

// The OpenAPI 3.1 `webhooks` map of the instance host: each kind of body the notifier (or
// testWebhook) POSTs to the instance's URL, with the headers it carries and what its answer means.

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
/** The schema's name under components.schemas. */
export const bodySchemaName = (body: NotificationBodyKind) => `${capitalized(body.name)}Notification`;

/** The headers of every notification and test (docs/api.md section 6, Standard Webhooks). */
const HEADERS: JsonSchema[] = [
  {
    name: 'webhook-id',
    description:
      'The same on every attempt of one notification, redeliveries included: `msg_` and 32 hex characters, `test_` for a test. Receivers deduplicate by it.',
    schema: { type: 'string', pattern: '^(msg|test)_[0-9a-f]{32}$' },
  },
  {
    name: 'webhook-timestamp',
    description: 'When this attempt was signed, in Unix seconds.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      "With `signatureScheme` `hmac`: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the instance's `whsec_` signing secret (its base64 part, decoded); with `ed25519`: `v1a,` and the base64 Ed25519 signature of the same text, checked with `signingPublicKey`. For `SIGNING_SECRET_OVERLAP_HOURS` after a rotation, two signatures separated by a space: the new one first. The receiver's own `webhookHeaders` (section 12) come too, exactly as registered.",
    schema: { type: 'string', pattern: '^v1a?,[A-Za-z0-9+/]+={0,2}( v1a?,[A-Za-z0-9+/]+={0,2})*$' },
  },
  {
    name: 'user-agent',
    description: "The notifier's name and version.",
    schema: { type: 'string' },
  },
].map((header) => ({ ...header, in: 'header', required: true }));

function pathItem(body: NotificationBodyKind): JsonSchema {
  return {
    post: {
      operationId: `${body.name}Notification`,
      summary: body.summary,
      description: `${body.description} The body is JSON (\`content-type: application/json\`); verify the signature on the bytes as received, before parsing them.`,
      tags: ['notifications'],
      // The service sends these; the receiver authenticates them by their signature (a header above),
      // which no security scheme of OpenAPI describes.
      security: [],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${bodySchemaName(body)}` },
            examples: Object.fromEntries(Object.entries(body.examples).map(([name, value]) => [name, { value }])),
          },
        },
      },
      responses: {
        '2XX': { description: 'Delivered: a 2xx answer whose headers arrive within 15 s. Its body is not read.' },
        '410': {
          description:
            "Gone: switches the instance's delivery off (`disabledReason`) and cancels its pending notifications.",
        },
        default: {
          description:
            'Any other answer (3xx included: redirects are not followed), or none within 15 s, is a failed attempt, retried on the schedule of docs/api.md section 6 (a `Retry-After` is honoured within bounds); a test is not retried.',
        },
      },
    },
  };
}

/** The `webhooks` map and the body schemas it names, for the instance host's document. */
export function webhooksMap(): { webhooks: JsonSchema; schemas: Record<string, JsonSchema> } {
  return {
    webhooks: Object.fromEntries(NOTIFICATION_BODIES.map((body) => [body.name, pathItem(body)])),
    schemas: Object.fromEntries(NOTIFICATION_BODIES.map((body) => [bodySchemaName(body), body.schema.json])),
  };
}
