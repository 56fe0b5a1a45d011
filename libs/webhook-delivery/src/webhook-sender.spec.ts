import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
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
});

describe('WebhookSender', () => {
  let server: Server;
  let seen: Array<{ headers: IncomingHttpHeaders; body: string }>;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => (seen = []));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

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
});
