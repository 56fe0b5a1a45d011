import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiProcess,
  createAccount,
  expectFailure,
  expectSuccess,
  get,
  postJson,
  rawHttp as raw,
  request,
  runOps,
} from '@gw/testing';

function statusAndBody(answer: string): { status: number; contentType: string; body: any } {
  const [head, body] = answer.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '',
    body: body ? JSON.parse(body) : undefined,
  };
}

const internalToken = () => readFileSync(join(api.dataDir, 'internal-token'), 'utf8').trim();
let api: ApiProcess;

describe('hostile and unusual requests', () => {
  let owner: { email: string; apikey: string };
  let instance: { instanceid: string; token: string };

  beforeAll(async () => {
    api = await ApiProcess.start();
    owner = createAccount(api.dataDir, 'hostile@example.com');
    instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
    );
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  it('answers a conditional GET in full and never lets an answer be cached: the token is not lost to a 304', async () => {
    const answer = await request(
      `${api.accountUrl}/newInstance?${new URLSearchParams({ email: owner.email, token: owner.apikey, packageid: 'trial' })}`,
      {
        headers: { 'if-none-match': '*' },
      },
    );
    expect(expectSuccess(answer).token).toMatch(/^gwt_/);
    expect(answer.headers.get('etag')).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });

  it.each([
    ['an unknown method', 'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 405, '0013'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /getWebhookStatus HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      '0009',
    ],
    ['a NUL in the path', 'GET /heal\u0000thz HTTP/1.1\r\nHost: x\r\n\r\n', 400, '0009'],
    ['oversized headers', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, '0009'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, '0013'],
    ['an unknown method on an unknown path', 'FOO /nope HTTP/1.1\r\nHost: x\r\n\r\n', 404, '0013'],
    ['a request line that is not one', 'GARBAGE\r\n\r\n', 400, '0009'],
    ['an HTTP/1.1 request without Host', 'GET /healthz HTTP/1.1\r\n\r\n', 400, '0009'],
  ])('answers %s with a JSON envelope, not an empty reply', async (_name, bytes, status, code) => {
    const answer = statusAndBody(await raw(api.apiUrl, bytes));
    expect(answer).toEqual({
      status,
      contentType: 'application/json; charset=utf-8',
      body: expect.objectContaining({ success: false, msg: [code] }),
    });
  });

  it("lets the instance host's refusals of what Node cannot parse be read cross-origin, as its other answers", async () => {
    const refusals = [
      `GET /getWebhookStatus HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET /getWebhookStatus HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'FOO /getWebhookStatus HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /getWebhookStatus HTTP/1.1\r\n\r\n',
    ];
    for (const bytes of refusals) {
      expect(await raw(api.apiUrl, bytes)).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
      expect(await raw(api.accountUrl, bytes)).not.toMatch(/access-control-allow-origin/i);
    }
    // HTTP/1.0 has no Host rule.
    expect(statusAndBody(await raw(api.apiUrl, 'GET /healthz HTTP/1.0\r\n\r\n'))).toMatchObject({ status: 200 });
  });

  it('says which methods a path takes even when Node does not know the method', async () => {
    const answer = await raw(api.apiUrl, 'FOO /webhook HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 405 /);
    expect(answer).toMatch(/\r\nallow: GET, POST\r\n/i);
  });

  it('routes an unknown method by its own path when requests before it came on the same connection', async () => {
    // Pipelined: Node's parser is handed all three at once and refuses the third.
    const answer = await raw(
      api.apiUrl,
      'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n\r\nFOO /nope HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    const refusal = answer.slice(answer.lastIndexOf('HTTP/1.1 '));
    // The first request's path (/healthz, which takes GET) would have made it 405 with `Allow: GET`.
    expect(statusAndBody(refusal)).toMatchObject({ status: 404, body: { success: false, msg: ['0013'] } });
    expect(refusal).not.toMatch(/\r\nallow:/i);

    // A body before it that holds an empty line and a request line of its own is not taken for it.
    const body = 'a=1\r\n\r\nGET /healthz HTTP/1.1';
    const afterBody = await raw(
      api.apiUrl,
      `POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        'FOO /nope HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(statusAndBody(afterBody.slice(afterBody.lastIndexOf('HTTP/1.1 ')))).toMatchObject({ status: 404 });

    const known = await raw(
      api.apiUrl,
      'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nFOO /webhook HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(known.slice(known.lastIndexOf('HTTP/1.1 '))).toMatch(/^HTTP\/1.1 405 [^]*\r\nallow: GET, POST\r\n/i);
  });

  it('refuses a malformed percent-escape in the ingest path with 400 0002, not a 5xx', async () => {
    const answer = await request(`${api.internalUrl}/instances/%zz/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${internalToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'a', chatId: 'b', time: 1 }),
    });
    expectFailure(answer, ['0002'], 400);
  });

  it('never echoes or logs a secret a client put in the path', async () => {
    const answer = await request(`${api.apiUrl}/webhook/${instance.token}`);
    expectFailure(answer, ['0013'], 404);
    expect(answer.text).not.toContain(instance.token);
    await new Promise((r) => setTimeout(r, 100));
    expect(api.output).not.toContain(instance.token);
    expect(api.output).toContain('/webhook/[REDACTED]');
  });

  it('refuses a body over 64 KiB on the account host too, and keeps answering', async () => {
    // fetch() refuses a body on GET, so the request goes over a raw socket.
    const over = statusAndBody(
      await raw(
        api.accountUrl,
        `GET /listInstances?email=${owner.email}&apikey=${owner.apikey} HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n${'x'.repeat(70_000)}`,
      ),
    );
    expect(over.body.msg).toEqual(['0009']);
    expectSuccess(await get(api.accountUrl, '/listInstances', { email: owner.email, apikey: owner.apikey }));
  });

  it('refuses a webhookUrl without an authority (https:host) with 0008', async () => {
    expectFailure(await postJson(api.apiUrl, '/webhook', { ...instance, webhookUrl: 'https:8.8.8.8/x' }), ['0008']);
  });

  it('refuses text that is not well-formed: a lone surrogate in JSON, bytes that are not UTF-8 in the query', async () => {
    expectFailure(
      await postJson(
        api.apiUrl,
        '/webhook',
        `{"instanceid":"${instance.instanceid}","token":"${instance.token}","webhookUrl":"https://8.8.8.8/\\ud800"}`,
      ),
      ['0002'],
    );
    expectFailure(await request(`${api.apiUrl}/getWebhookStatus?instanceid=%FF%FE&token=${instance.token}`), ['0002']);
  });

  it('lets the operator CLI create only accounts whose address the API accepts', async () => {
    for (const email of ['ann@example.c', 'a..b@example.com', 'ann@exa_mple.com']) {
      expect(runOps(api.dataDir, ['accounts', 'create', '--email', email]).status).toBe(1);
    }
  });
});
