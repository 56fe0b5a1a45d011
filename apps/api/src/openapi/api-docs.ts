import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { sendFile, type StaticFiles } from '../http/static-files';
import { DOCS_FILES, DOCS_ROUTES } from './docs-routes';
import { DOCS_SCRIPT, docsPage } from './docs-page';
import { openApiDocument, type PublicHost } from './openapi-document';

/** Nothing but the host itself: the page loads its files from it and calls only it. swagger-ui
 * sets inline styles, hence 'unsafe-inline' for styles (never for scripts). */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

let vendored: Map<string, Buffer> | undefined;

/** swagger-ui-dist's files, read once per process and shared by both hosts. */
function vendoredFiles(): Map<string, Buffer> {
  if (!vendored) {
    const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
    vendored = new Map(
      Object.entries(DOCS_FILES)
        .filter(([, file]) => file.from === 'swagger-ui-dist')
        .map(([name]) => [name, readFileSync(join(dir, name))]),
    );
  }
  return vendored;
}

/**
 * `/openapi.json`, `/docs` and the files of `/docs` on one public host (docs/api.md section 10).
 * The document is built once, at start, from the operation table and the DTO rules, so that a rule
 * it cannot describe stops the start rather than a request.
 */
export class ApiDocs implements StaticFiles {
  private readonly files: Map<string, { type: string; body: Buffer; cache: string }>;

  constructor(host: PublicHost) {
    const document = openApiDocument(host);
    const title = (document['info'] as { title: string }).title;
    const assets = vendoredFiles();
    this.files = new Map([
      [
        '/openapi.json',
        { type: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(document)), cache: 'no-cache' },
      ],
      ['/docs', { type: 'text/html; charset=utf-8', body: Buffer.from(docsPage(title)), cache: 'no-cache' }],
      ...Object.entries(DOCS_FILES).map(([name, file]): [string, { type: string; body: Buffer; cache: string }] => [
        `/docs/${name}`,
        {
          type: file.type,
          body: file.from === 'project' ? Buffer.from(DOCS_SCRIPT) : (assets.get(name) as Buffer),
          cache: 'public, max-age=3600',
        },
      ]),
    ]);
  }

  serves(pattern: string): boolean {
    return Object.hasOwn(DOCS_ROUTES, pattern);
  }

  serve(pattern: string, _path: string, _req: IncomingMessage, res: ServerResponse): void {
    const file = this.files.get(pattern);
    if (!file) throw new Error(`no API docs file at ${pattern}`);
    sendFile(res, file.type, file.body, {
      'cache-control': file.cache,
      ...(pattern === '/docs' ? { 'content-security-policy': PAGE_POLICY } : {}),
    });
  }
}
