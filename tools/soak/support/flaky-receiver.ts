import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What a notification carries, by CONTRACT section 6 (one item or a batch of several). */
interface NotificationBody {
  instanceId?: string;
  messages?: Array<{ id?: string }>;
  ack?: Array<{ id?: string; status?: string }>;
}

/** The key of one notified item: `<instanceId> m:<message id>` or `<instanceId> a:<message id>:<status>`. */
export const messageKey = (instanceId: string, id: string) => `${instanceId} m:${id}`;
export const ackKey = (instanceId: string, id: string, status: string) => `${instanceId} a:${id}:${status}`;

/**
 * A webhook receiver on a loopback port that answers 500 to about a third of the requests and 200
 * to the rest. One notification (one webhook-id) fails at most `maxFailures` times, so that with a
 * RETRY_SCHEDULE of more retries than that every notification is delivered before it would be
 * dead-lettered. It keeps only what the soak checks, so its memory stays small over long runs:
 * per webhook-id the failures and whether a 200 went out, and the set of items delivered with a 200.
 * Each instance registers `/hook/<instanceid>`; a body naming another instance is a problem.
 */
export class FlakyReceiver {
  requests = 0;
  failedOnPurpose = 0;
  /** Distinct notifications (webhook-ids) that got a 200. */
  delivered = 0;
  readonly notifications = new Map<string, { failures: number; delivered: boolean }>();
  readonly deliveredItems = new Set<string>();
  readonly problems: string[] = [];
  port = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly maxFailures: number) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests += 1;
        const webhookId = String(req.headers['webhook-id'] ?? '');
        const pathInstance = /^\/hook\/([^/?]+)/.exec(req.url ?? '')?.[1];
        let body: NotificationBody | undefined;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as NotificationBody;
        } catch {
          body = undefined;
        }
        const items = body && pathInstance && body.instanceId === pathInstance ? this.items(body) : undefined;
        if (!webhookId || !items) {
          this.problems.push(`unexpected request to ${req.url} (webhook-id ${webhookId || 'none'})`);
          res.writeHead(400).end();
          return;
        }
        const seen = this.notifications.get(webhookId) ?? { failures: 0, delivered: false };
        this.notifications.set(webhookId, seen);
        if (seen.failures < this.maxFailures && Math.random() < 1 / 3) {
          seen.failures += 1;
          this.failedOnPurpose += 1;
          res.writeHead(500, { 'content-type': 'text/plain' }).end('failing on purpose');
          return;
        }
        // Delivered once the whole 200 has been handed to the connection.
        res.once('finish', () => {
          if (!seen.delivered) this.delivered += 1;
          seen.delivered = true;
          for (const item of items) this.deliveredItems.add(item);
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.keepAliveTimeout = 10_000;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  url(instanceid: string): string {
    return `http://127.0.0.1:${this.port}/hook/${instanceid}`;
  }

  /** The item keys of a notification; undefined when it is neither a message nor an ack batch. */
  private items(body: NotificationBody): string[] | undefined {
    const instanceId = body.instanceId!;
    if (Array.isArray(body.messages) && body.messages.length && !body.ack) return body.messages.map((m) => messageKey(instanceId, String(m.id)));
    if (Array.isArray(body.ack) && body.ack.length && !body.messages) return body.ack.map((a) => ackKey(instanceId, String(a.id), String(a.status)));
    return undefined;
  }
}
