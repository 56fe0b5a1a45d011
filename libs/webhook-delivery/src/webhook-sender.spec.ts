import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { errors } from 'undici';
import { signWebhook } from './signature';
import { describeFailure, parseRetryAfter, WebhookSender } from './webhook-sender';

// The sender shared by the notifier and the API's testWebhook (docs/api.md section 6 and 8.6).
const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64');

describe('signWebhook', () => {
  it('signs as the Standard Webhooks library verifies', () => {
    const body = '{"a":1}';
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signWebhook(SECRET, 'msg_1', timestamp, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(() => new Webhook(SECRET).verify(body, headers)).not.toThrow();
  });
});

describe('parseRetryAfter and describeFailure', () => {
  it('reads both forms of Retry-After', () => {
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });

  it('names a refused connection and an unresolvable host', () => {
    expect(describeFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(
      'refused: connection refused',
    );
    expect(describeFailure(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toMatch(/^DNS/);
  });

  it("names the HTTP client's own failures as the same kinds", () => {
    expect(describeFailure(new errors.SocketError('other side closed'))).toBe('reset: connection reset');
    expect(describeFailure(new errors.ConnectTimeoutError())).toBe('timeout: connection timed out');
    expect(describeFailure(new errors.HeadersTimeoutError())).toBe('timeout: no answer in time');
    expect(describeFailure(new errors.ClientDestroyedError())).toBe('cancelled: the sender was stopping');
  });
});

describe('WebhookSender', () => {
  let server: Server;
  let seen: Array<{ headers: IncomingHttpHeaders; rawHeaders: string[]; body: string; socket: number }>;
  let port: number;
  let connections: number;
  /** How the server answers a request whose body it has read; a 204 unless a test says otherwise. */
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, rawHeaders: req.rawHeaders, body, socket: socketIds.get(req.socket)! });
        answer(req, res);
      });
    });
    const socketIds = new WeakMap<object, number>();
    server.on('connection', (socket) => socketIds.set(socket, ++connections));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    seen = [];
    connections = 0;
    answer = (_req, res) => res.writeHead(204).end();
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const delivery = (url: string) => ({ url, webhookId: 'test_1', body: '{"test":true}', signingSecrets: [SECRET] });

  it('posts a signed body to an allowed target and reports its status', async () => {
    const sender = new WebhookSender({ allowHttp: true, allowPrivateTargets: true, deliveryTimeoutMs: 1000 });
    const result = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
    sender.close();
    expect(result).toMatchObject({ status: 204, error: '' });
    expect(seen).toHaveLength(1);
    expect(() => new Webhook(SECRET).verify(seen[0].body, seen[0].headers as Record<string, string>)).not.toThrow();
  });

  it('never connects to a loopback address, by literal or by name, unless private targets are allowed', async () => {
    const sender = new WebhookSender({ allowHttp: true, allowPrivateTargets: false, deliveryTimeoutMs: 1000 });
    for (const host of ['127.0.0.1', 'localhost']) {
      const result = await sender.send(delivery(`http://${host}:${port}/h`));
      expect(result.status).toBe(0);
      expect(result.error).toMatch(/^address not allowed/);
    }
    sender.close();
    expect(seen).toHaveLength(0);
  });

  it('refuses http unless allowed', async () => {
    const sender = new WebhookSender({ allowHttp: false, allowPrivateTargets: true, deliveryTimeoutMs: 1000 });
    const result = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
    sender.close();
    expect(result.error).toMatch(/^address not allowed: http: is not https/);
    expect(seen).toHaveLength(0);
  });

  const local = (deliveryTimeoutMs = 1000) =>
    new WebhookSender({ allowHttp: true, allowPrivateTargets: true, deliveryTimeoutMs });

  it("sends the receiver's own headers first and as given, then ours, with a content-length (never chunked)", async () => {
    const sender = local();
    const result = await sender.send({
      ...delivery(`http://127.0.0.1:${port}/h/path?x=1&y=2`),
      headers: [
        ['X-Tenant', '7'],
        ['Authorization', 'Bearer abc'],
      ],
    });
    sender.close();
    expect(result.status).toBe(204);
    const [{ headers, rawHeaders, body }] = seen;
    // (The client's own host and connection headers may come before them.)
    const names = rawHeaders.filter((_, i) => i % 2 === 0);
    // undici writes its host and connection first and content-length last.
    expect(names).toEqual([
      'host',
      'connection',
      'X-Tenant',
      'Authorization',
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'content-length',
    ]);
    expect(rawHeaders[rawHeaders.indexOf('X-Tenant') + 1]).toBe('7');
    expect(rawHeaders[rawHeaders.indexOf('Authorization') + 1]).toBe('Bearer abc');
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': expect.stringMatching(/^gateway-hub-notifier\//),
      'webhook-id': 'test_1',
    });
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(body).toBe('{"test":true}');
  });

  it('posts to the path and query of the URL and sends its user info as Basic authorization', async () => {
    const sender = local();
    await sender.send(delivery(`http://us%40er:p%3Ass@127.0.0.1:${port}/h/path?x=1#frag`));
    await sender.send({
      ...delivery(`http://user:pass@127.0.0.1:${port}/own`),
      headers: [['authorization', 'Bearer mine']],
    });
    sender.close();
    expect(seen.map((s) => s.headers.authorization)).toEqual([
      `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`,
      'Bearer mine',
    ]);
  });

  it('keeps the connection for the next attempt to the same receiver', async () => {
    const sender = local();
    for (let i = 0; i < 3; i++) {
      expect((await sender.send(delivery(`http://127.0.0.1:${port}/h`))).status).toBe(204);
      // The attempt is over at the answer's headers; the connection is free once its body is read.
      await new Promise((resolve) => setImmediate(resolve));
    }
    sender.close();
    expect(seen.map((s) => s.socket)).toEqual([1, 1, 1]);
  });

  it("reports a non-2xx status with the answer's Retry-After, and answers before a long body ends", async () => {
    answer = (_req, res) => {
      res.writeHead(429, { 'retry-after': '30' });
      // Half of the body now, the rest never: the status must not wait for it.
      res.write('x'.repeat(1000));
    };
    const sender = local();
    const result = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
    sender.close();
    expect(result).toMatchObject({ status: 429, error: '', retryAfterSeconds: 30 });
  });

  it('gives up on an answer whose headers do not come within DELIVERY_TIMEOUT_MS, and drops its connection', async () => {
    let dropped = false;
    answer = (req) => req.socket.once('close', () => (dropped = true));
    const sender = local(300);
    const result = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
    expect(result).toMatchObject({ status: 0, error: 'timeout: no answer within 300 ms', retryAfterSeconds: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    // The client's own header timeout (a second later) ends the connection, and opens no other.
    for (let waited = 0; !dropped && waited < 3000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    sender.close();
    expect(dropped).toBe(true);
    expect(connections).toBe(1);
  });

  it("sends the receiver's own Expect header as given, with the rest in the same order", async () => {
    const sender = local();
    const result = await sender.send({
      ...delivery(`http://us%40er:pw@127.0.0.1:${port}/h?x=1`),
      headers: [
        ['X-Tenant', '7'],
        ['Expect', '100-continue'],
      ],
    });
    sender.close();
    expect(result).toMatchObject({ status: 204, error: '' });
    const [{ headers, rawHeaders, body }] = seen;
    const names = rawHeaders.filter((_, i) => i % 2 === 0).filter((name) => !/^(host|connection)$/i.test(name));
    expect(names.slice(0, 4)).toEqual(['X-Tenant', 'Expect', 'authorization', 'content-type']);
    expect(headers).toMatchObject({
      expect: '100-continue',
      authorization: `Basic ${Buffer.from('us@er:pw').toString('base64')}`,
      host: `127.0.0.1:${port}`,
      'content-length': String(Buffer.byteLength(body)),
    });
    expect(() => new Webhook(SECRET).verify(body, headers as Record<string, string>)).not.toThrow();
  });

  it('makes no attempt once it is closed, whether its HTTP client was loaded or not', async () => {
    for (const loaded of [false, true]) {
      const sender = local();
      if (loaded) await sender.load();
      sender.close();
      const result = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
      expect(result).toMatchObject({ status: 0, error: 'cancelled: the sender was stopping' });
    }
    expect(seen).toHaveLength(0);
  });

  it('names a connection the receiver closes without answering, and one it refuses', async () => {
    answer = (req) => req.socket.destroy();
    const sender = local();
    const reset = await sender.send(delivery(`http://127.0.0.1:${port}/h`));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await sender.send(delivery(`http://127.0.0.1:${closedPort}/h`));
    sender.close();
    expect(reset).toMatchObject({ status: 0, error: 'reset: connection reset' });
    expect(refused).toMatchObject({ status: 0, error: 'refused: connection refused' });
  });
});
