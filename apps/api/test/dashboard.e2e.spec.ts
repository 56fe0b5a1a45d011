import { request as httpRequest } from 'node:http';
import { ApiProcess, expectFailure, expectThrottled, get, request } from '@gw/testing';

/** GET / with a Host header of our choosing (fetch does not let a caller set it). */
function hostRequest(port: number, host: string): Promise<{ status: number; csp: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, csp: String(res.headers['content-security-policy'] ?? '') }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

// The dashboard's files on the account host (docs/api.md section 10), as the transport serves them;
// the page itself is driven in a browser by `npm run test:browser` (apps/dashboard/test).

describe('the dashboard on the account host', () => {
  let api: ApiProcess;
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  it('serves the page at / with its settings, and the files it names', async () => {
    const page = await request(`${api.accountUrl}/`);
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    // The instance host the page derives (its own host name on the instance port), and no other.
    const port = api.ports['instance'];
    expect(page.headers.get('content-security-policy')).toContain(
      `connect-src 'self' http://127.0.0.1:${port} https://127.0.0.1:${port};`,
    );
    const settings = JSON.parse(
      /<script id="gw-settings" type="application\/json">(.*?)<\/script>/.exec(page.text)![1],
    );
    expect(settings).toMatchObject({ apiUrl: '', apiPort: api.ports['instance'] });
    expect(settings.packages.map((p: { packageid: string }) => p.packageid)).toEqual(['trial', 'monthly', 'annual']);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) expect((await request(`${api.accountUrl}${asset}`)).status).toBe(200);
  });

  it('names the instance host by the host name the page was asked for, and never reflects a malformed Host', async () => {
    const port = api.ports['instance'];
    const csp = async (host: string) => {
      const answer = await hostRequest(api.ports['account'], host);
      expect(answer.status).toBe(200);
      return answer.csp;
    };
    expect(await csp(`gw.example.com:${api.ports['account']}`)).toContain(
      `connect-src 'self' http://gw.example.com:${port} https://gw.example.com:${port};`,
    );
    for (const junk of ["evil.example; script-src 'unsafe-inline'", 'a,b', 'evil.example:1:2']) {
      const policy = await csp(junk);
      expect(policy).toContain("connect-src 'self'; base-uri");
      expect(policy).not.toContain('evil');
    }
  });

  it('takes GET and HEAD only, and only on the account host', async () => {
    const head = await request(`${api.accountUrl}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await request(`${api.accountUrl}/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expectFailure(await request(`${api.apiUrl}/`), ['0013'], 404);
    expectFailure(await request(`${api.accountUrl}/assets/missing.js`), ['0013'], 404);
  });

  it('lets the page call the instance host across origins (CORS, docs/api.md section 1)', async () => {
    const preflight = await request(`${api.apiUrl}/getWebhookStatus`, {
      method: 'OPTIONS',
      headers: {
        origin: api.accountUrl,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    const call = await request(`${api.apiUrl}/getWebhookStatus`, {
      method: 'POST',
      headers: { origin: api.accountUrl, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(call.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('is still served to a source that failed too often, and costs it nothing', async () => {
    for (let i = 0; i < 3; i++)
      await get(api.accountUrl, '/listInstances', { email: 'nobody@example.com', apikey: 'wrong' });
    expectThrottled(await get(api.accountUrl, '/listInstances', { email: 'nobody@example.com', apikey: 'wrong' }));
    for (let i = 0; i < 5; i++) expect((await request(`${api.accountUrl}/`)).status).toBe(200);
  });
});
