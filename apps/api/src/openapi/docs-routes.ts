import type { RouteTable } from '@gw/http-listener';

/** The interactive reference's files under `/docs/`, by name: where each comes from, and its type.
 * `docs.js` is the project's own (docs-page.ts); the rest are swagger-ui-dist's, served as shipped. */
export const DOCS_FILES = {
  'swagger-ui.css': { from: 'swagger-ui-dist', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { from: 'swagger-ui-dist', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { from: 'swagger-ui-dist', type: 'image/png' },
  'docs.js': { from: 'project', type: 'text/javascript; charset=utf-8' },
} as const;

/** The API description and its interactive reference, on both public hosts (docs/api.md section 10).
 * Every file is a route of its own, so that any other path under /docs is the router's 404. */
export const DOCS_ROUTES: RouteTable = {
  '/openapi.json': ['GET', 'HEAD'],
  '/docs': ['GET', 'HEAD'],
  ...Object.fromEntries(Object.keys(DOCS_FILES).map((name) => [`/docs/${name}`, ['GET', 'HEAD']])),
};

/** The request metrics' `operation` label of each of these routes. */
export const DOCS_OPERATION_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(DOCS_ROUTES).map((pattern) => [pattern, pattern === '/openapi.json' ? 'openapi' : 'docs']),
);
