import { DOCS_FILES } from './docs-routes';
import type { JsonSchema } from './json-schema';

/** How a route outside the operation table is described: what it is and what it answers. */
export interface ServiceRouteDoc {
  summary: string;
  /** Media type and schema of a 200 answer's body; none for a file whose type varies. */
  content?: { type: string; schema: JsonSchema };
}

const html = { type: 'text/html', schema: { type: 'string' } };

/**
 * Every route a public host serves besides its operations, by route pattern. A route missing here
 * makes building the description fail (openapi-document.spec.ts): every route is described.
 */
export const SERVICE_ROUTE_DOCS: Readonly<Record<string, ServiceRouteDoc>> = {
  '/healthz': {
    summary: 'Readiness: HTTP 200 once the host is ready to serve; never rate limited',
    content: {
      type: 'application/json',
      schema: {
        type: 'object',
        required: ['success', 'status'],
        properties: { success: { const: true }, status: { const: 'ok' } },
      },
    },
  },
  '/openapi.json': {
    summary: "This document: the host's operations as OpenAPI 3.1, generated from the rules that check requests",
    content: { type: 'application/json', schema: { type: 'object' } },
  },
  '/docs': { summary: 'The interactive reference to this document, served by the host itself', content: html },
  ...Object.fromEntries(
    Object.entries(DOCS_FILES).map(([name, { type }]) => [
      `/docs/${name}`,
      {
        summary: `A file of the interactive reference (${name})`,
        content: { type: type.split(';')[0], schema: { type: 'string' } },
      },
    ]),
  ),
  '/': { summary: 'The dashboard for account holders and instance owners (docs/api.md section 10)', content: html },
  '/assets/:file': { summary: 'A bundled file of the dashboard (its name carries a hash of its content)' },
};
