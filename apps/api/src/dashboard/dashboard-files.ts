import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join } from 'node:path';
import { Codes, failureEnvelope } from '@gw/contract';
import { sendJson } from '@gw/http-listener';
import { tagFailure } from '../metrics/request-metrics';
import { sendFile, type StaticFiles } from '../http/static-files';
import { DASHBOARD_ROUTES } from './dashboard-routes';
import { instanceHostSources } from './page-host';

/** What the page is told when it is served: where the instance host is, and the packages to offer. */
export interface DashboardSettings {
  /** PUBLIC_API_URL, or '' for the page's own host name on `apiPort`. */
  publicApiUrl: string;
  packages: ReadonlyArray<{ packageid: string; durationDays: number }>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Where `npm run build` puts the bundle (apps/dashboard/bundle.js), found from here both in the
 * sources and in the build output under dist/. */
function findDashboardBundle(from = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist')))
      return join(dir, 'dist', 'apps', 'dashboard');
  }
  return join(process.cwd(), 'dist', 'apps', 'dashboard');
}

/**
 * The dashboard's files, read once at start. The page is the bundle's index.html with the settings
 * put in as a JSON data block (no inline script runs: the Content-Security-Policy allows scripts
 * from this host only). Credentials never reach these routes: the page keeps them in memory.
 */
export class DashboardFiles implements StaticFiles {
  /** The instance host's port, once it listens (API_PORT may be 0: a free port). */
  apiPort = 0;

  private constructor(
    private readonly page: string | undefined,
    private readonly assets: ReadonlyMap<string, Buffer>,
    private readonly settings: DashboardSettings,
  ) {}

  /** Reads the bundle in `dir`; a missing bundle leaves `built` false and the page answering 404. */
  static load(settings: DashboardSettings, dir = findDashboardBundle()): DashboardFiles {
    const index = join(dir, 'index.html');
    if (!existsSync(index)) return new DashboardFiles(undefined, new Map(), settings);
    const assetsDir = join(dir, 'assets');
    const assets = new Map(
      (existsSync(assetsDir) ? readdirSync(assetsDir) : [])
        .filter((name) => TYPES[extname(name)])
        .map((name) => [name, readFileSync(join(assetsDir, name))]),
    );
    return new DashboardFiles(readFileSync(index, 'utf8'), assets, settings);
  }

  get built(): boolean {
    return this.page !== undefined;
  }

  serves(pattern: string): boolean {
    return Object.hasOwn(DASHBOARD_ROUTES, pattern);
  }

  serve(pattern: string, path: string, req: Pick<IncomingMessage, 'headers'>, res: ServerResponse): void {
    if (pattern === '/' && this.page !== undefined) {
      const html = this.page.replace('<!--gw-settings-->', () => this.settingsBlock());
      // The policy names the host the page was asked for: a cache must not give it to another.
      sendFile(res, 'text/html; charset=utf-8', Buffer.from(html), {
        ...this.pageHeaders(req.headers.host),
        'cache-control': 'no-cache',
        vary: 'Host',
      });
      return;
    }
    const asset = pattern === '/assets/:file' ? this.assets.get(path.slice('/assets/'.length)) : undefined;
    if (asset) {
      // The names carry a hash of the content, so a name never changes meaning.
      const name = path.slice('/assets/'.length);
      sendFile(res, TYPES[extname(name)], asset, { 'cache-control': 'public, max-age=31536000, immutable' });
      return;
    }
    const missing = [
      {
        code: Codes.UnknownOperation,
        message: this.built ? 'unknown file' : 'the dashboard is not built (npm run build)',
      },
    ];
    tagFailure(res, missing);
    sendJson(res, 404, failureEnvelope(missing));
  }

  /** The settings as a JSON data block; `<` is escaped so that no value can close the element. */
  private settingsBlock(): string {
    const json = JSON.stringify({
      apiUrl: this.settings.publicApiUrl,
      apiPort: this.apiPort,
      packages: this.settings.packages,
    }).replace(/</g, '\\u003c');
    return `<script id="gw-settings" type="application/json">${json}</script>`;
  }

  /** The page talks to this host and the instance host only; nothing is framed, inlined or sent
   * elsewhere. The instance host is PUBLIC_API_URL's origin, or else the one the page derives from
   * the host name it was loaded from (`hostHeader`), never any host on that port. */
  private pageHeaders(hostHeader: string | undefined): Record<string, string> {
    const instanceHost = this.settings.publicApiUrl
      ? [new URL(this.settings.publicApiUrl).origin]
      : instanceHostSources(hostHeader, this.apiPort);
    return {
      'content-security-policy': [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        ["connect-src 'self'", ...instanceHost].join(' '),
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    };
  }
}
