import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Notification {
  instanceId?: string;
  sequence?: number;
  messages?: Array<{ id: string }>;
  ack?: Array<{ id: string; status: string }>;
}

/** How the receiver treats one request. */
export type Behaviour =
  | { kind: 'ok'; delayMs: number } // 200, at once or slowly (within the delivery timeout)
  | { kind: 'status'; status: number; headers?: Record<string, string> } // a failed attempt: 500, 503, 302, ...
  | { kind: 'timeout'; delayMs: number } // 200, but only after the sender's timeout
  | { kind: 'reset' }; // the connection is destroyed without an answer

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON (a notification of CONTRACT section 6); undefined when it is not JSON. */
  json?: Notification;
  webhookId: string;
  behaviour: Behaviour;
  /** A 2xx was written to the connection in full before the sender's timeout. */
  delivered: boolean;
}

/**
 * A webhook receiver on a loopback port whose answer to each request `choose` decides; it records
 * every request and whether a 2xx reached the sender.
 */
export class ChaosReceiver {
  readonly received: Received[] = [];
  /** Webhook-ids that got a 2xx at least once. */
  readonly deliveredIds = new Set<string>();
  /** Messages and acks in the notifications of `deliveredIds`, each notification counted once (a
   * notification may carry several: CONTRACT section 6, batching). Kept as it goes, for polling. */
  deliveredItems = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  port = 0;

  constructor(private readonly choose: (webhookId: string, path: string) => Behaviour) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let json: Notification | undefined;
        try {
          json = JSON.parse(rawBody) as Notification;
        } catch {
          json = undefined;
        }
        const webhookId = String(req.headers['webhook-id'] ?? '');
        const path = (req.url ?? '/').split('?')[0];
        const behaviour = this.choose(webhookId, path);
        const entry: Received = { path, headers: req.headers, rawBody, json, webhookId, behaviour, delivered: false };
        this.received.push(entry);
        const answer = (status: number, headers: Record<string, string> = {}) => {
          if (behaviour.kind === 'ok') res.once('finish', () => this.delivered(entry));
          res.writeHead(status, { 'content-type': 'text/plain', ...headers });
          res.end('answer');
        };
        const later = (ms: number, then: () => void) => {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            then();
          }, ms);
          this.timers.add(timer);
        };
        if (behaviour.kind === 'reset') req.socket.destroy();
        else if (behaviour.kind === 'status') answer(behaviour.status, behaviour.headers);
        else if (behaviour.delayMs === 0) answer(200);
        else later(behaviour.delayMs, () => (res.destroyed ? undefined : answer(200)));
      });
    });
    server.keepAliveTimeout = 10_000;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private delivered(entry: Received): void {
    entry.delivered = true;
    if (this.deliveredIds.has(entry.webhookId)) return;
    this.deliveredIds.add(entry.webhookId);
    this.deliveredItems += (entry.json?.messages?.length ?? 0) + (entry.json?.ack?.length ?? 0);
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}
