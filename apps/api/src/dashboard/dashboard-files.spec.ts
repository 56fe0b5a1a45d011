import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DashboardFiles, type DashboardSettings } from './dashboard-files';

/** What a ServerResponse was given. */
function recorder() {
  const answer = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const res = {
    writeHead: (status: number, headers: Record<string, unknown>) => Object.assign(answer, { status, headers }),
    end: (body: Buffer | string) => (answer.body = String(body)),
  } as unknown as ServerResponse;
  return { res, answer };
}

const SETTINGS: DashboardSettings = { publicApiUrl: '', packages: [{ packageid: 'trial', durationDays: 3 }] };

describe('the dashboard files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-dashboard-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<head><!--gw-settings--><script src="/assets/main-1.js"></script></head>');
    writeFileSync(join(dir, 'assets', 'main-1.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'notes.txt'), 'not served');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const serve = (
    files: DashboardFiles,
    pattern: string,
    path: string,
    headers: { host?: string } = { host: 'gw.example.com:18080' },
  ) => {
    const { res, answer } = recorder();
    files.serve(pattern, path, { headers }, res);
    return answer;
  };

  it('puts the settings into the page as data, with the instance port it listens on', () => {
    const files = DashboardFiles.load(SETTINGS, dir);
    files.apiPort = 18081;
    const page = serve(files, '/', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const json = /<script id="gw-settings" type="application\/json">(.*)<\/script><script/.exec(page.body)?.[1];
    expect(JSON.parse(json!)).toEqual({ apiUrl: '', apiPort: 18081, packages: SETTINGS.packages });
  });

  it('lets the page run its own scripts only and reach this host and the instance host only', () => {
    const files = DashboardFiles.load(SETTINGS, dir);
    files.apiPort = 18081;
    const csp = String(serve(files, '/', '/').headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    // The instance host the page derives: the host name it was loaded from, on the instance port.
    expect(csp).toContain("connect-src 'self' http://gw.example.com:18081 https://gw.example.com:18081;");
    expect(csp).not.toContain('*');
    const cspFor = (host: string | undefined) =>
      String(serve(files, '/', '/', { host }).headers['content-security-policy']);
    expect(cspFor('GW.Example.com')).toContain(
      "connect-src 'self' http://gw.example.com:18081 https://gw.example.com:18081;",
    );
    expect(cspFor('127.0.0.1:8080')).toContain("connect-src 'self' http://127.0.0.1:18081 https://127.0.0.1:18081;");
    expect(cspFor('[::1]:8080')).toContain("connect-src 'self' http://[::1]:18081 https://[::1]:18081;");
    // A Host header that is no well-formed name is never written into the policy: own origin only.
    for (const junk of [
      undefined,
      '',
      'a b',
      "evil.example; script-src 'unsafe-inline'",
      'evil.example:80:81',
      '[not-v6]',
      'x'.repeat(300),
      'evil.example/x',
      'user@evil.example',
    ]) {
      expect(cspFor(junk)).toContain("connect-src 'self'; base-uri");
    }
    const behindProxy = DashboardFiles.load({ ...SETTINGS, publicApiUrl: 'https://api.example.com/gw' }, dir);
    expect(String(serve(behindProxy, '/', '/').headers['content-security-policy'])).toContain(
      "connect-src 'self' https://api.example.com;",
    );
  });

  it('escapes what could close the data block', () => {
    const files = DashboardFiles.load(
      { ...SETTINGS, packages: [{ packageid: '</script><script>alert(1)</script>', durationDays: 1 }] },
      dir,
    );
    const page = serve(files, '/', '/').body;
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(page).toContain('\\u003c/script>');
  });

  it('serves the bundled assets for good, and nothing else', () => {
    const files = DashboardFiles.load(SETTINGS, dir);
    const script = serve(files, '/assets/:file', '/assets/main-1.js');
    expect(script).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(script.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    for (const path of ['/assets/notes.txt', '/assets/missing.js', '/assets/..%2Findex.html']) {
      const missing = serve(files, '/assets/:file', path);
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toMatchObject({ success: false, msg: ['0013'] });
    }
  });

  it('answers 404 with the envelope while the bundle is not built', () => {
    const files = DashboardFiles.load(SETTINGS, join(dir, 'nowhere'));
    expect(files.built).toBe(false);
    const page = serve(files, '/', '/');
    expect(page.status).toBe(404);
    expect(JSON.parse(page.body)).toMatchObject({
      success: false,
      msg: ['0013'],
      details: [{ message: 'the dashboard is not built (npm run build)' }],
    });
  });
});
