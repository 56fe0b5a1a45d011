import SwaggerParser from '@apidevtools/swagger-parser';
import { ApiProcess, expectFailure, get, request, type Answer } from '@gw/testing';
import type { Document } from './support/openapi-document';

/** docs/api.md section 10: `/openapi.json` and `/docs` on both public hosts, over real HTTP (the
 * documents against the live service: openapi-conformance.e2e.spec.ts). */

describe('the API descriptions and their interactive reference', () => {
  let api: ApiProcess;
  const documents: Record<string, Document> = {};
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });
  const hosts = () => [
    ['account', api.accountUrl],
    ['instance', api.apiUrl],
  ];

  it('each public host serves its own operations as a valid OpenAPI document', async () => {
    for (const [host, base] of hosts()) {
      const answer = await request(`${base}/openapi.json`);
      expect({ status: answer.status, type: answer.contentType }).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
      });
      documents[host] = answer.json;
      await expect(SwaggerParser.validate(structuredClone(answer.json))).resolves.toBeDefined();
    }
    expect(Object.keys(documents['account'].paths)).toEqual(
      expect.arrayContaining(['/newInstance', '/resetApiKey', '/webhook']),
    );
    expect(Object.keys(documents['account'].paths)).not.toContain('/getWebhookStatus');
    expect(Object.keys(documents['instance'].paths)).toEqual(
      expect.arrayContaining(['/getWebhookStatus', '/redeliver', '/webhook']),
    );
    expect(Object.keys(documents['instance'].paths)).not.toContain('/newInstance');
    // The instance host's rule for every answer: readable cross-origin.
    expect((await request(`${api.apiUrl}/openapi.json`)).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('/docs loads, with every file it names, from the host itself and nowhere else', async () => {
    for (const [, base] of hosts()) {
      const page = await request(`${base}/docs`);
      expect({ status: page.status, type: page.contentType }).toEqual({
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(refs.length).toBeGreaterThanOrEqual(3);
      const files: Answer[] = [];
      for (const ref of refs) {
        const url = new URL(ref, `${base}/docs`);
        expect(url.origin).toBe(new URL(base).origin);
        files.push(await request(url.href));
      }
      expect(files.map((f) => f.status)).toEqual(refs.map(() => 200));
      expect(files.every((f) => f.text.length > 0)).toBe(true);
      // The page's own script reads the description next to it, on the same host.
      const script = files[refs.indexOf('docs/docs.js')].text;
      const url = /url: '([^']+)'/.exec(script)?.[1] ?? '';
      expect(new URL(url, `${base}/docs`).href).toBe(`${base}/openapi.json`);
    }
  });

  it('keeps the router answering 404 and 405 for what it does not serve', async () => {
    for (const [, base] of hosts()) {
      expectFailure(await request(`${base}/docs/index.html`), ['0013'], 404);
      expectFailure(await request(`${base}/openapi.yaml`), ['0013'], 404);
      const post = await request(`${base}/openapi.json`, { method: 'POST' });
      expectFailure(post, ['0013'], 405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      const head = await request(`${base}/openapi.json`, { method: 'HEAD' });
      expect({ status: head.status, body: head.text, length: Number(head.headers.get('content-length')) > 0 }).toEqual({
        status: 200,
        body: '',
        length: true,
      });
    }
    expectFailure(await request(`${api.internalUrl}/openapi.json`), ['0013'], 404);
    // A file route's name is matched as sent: a malformed percent-escape is no such file, not 0002.
    for (const name of ['%zz', '%E0%A4%A', 'a%'])
      expectFailure(await request(`${api.accountUrl}/assets/${name}`), ['0013'], 404);
  });

  it("neither spends a source's failure budget nor is refused to a source past it", async () => {
    const fail = () => get(api.accountUrl, '/listInstances', { email: 'bad', apikey: 'x' });
    const readAll = async () => {
      for (const [, base] of hosts()) {
        for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui.css'])
          expect((await request(`${base}${path}`)).status).toBe(200);
      }
    };
    // The budget is two failures.
    for (let i = 0; i < 3; i++) await readAll();
    expectFailure(await fail(), ['0002']);
    expectFailure(await fail(), ['0002']);
    expectFailure(await fail(), ['0010']);
    await readAll();
  });
});
