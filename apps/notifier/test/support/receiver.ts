import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the receiver answers one request. Default: 200 at once. */
export interface Behaviour {
  status?: number;
  /** Wait this long before answering (the request stays in flight meanwhile). */
  delayMs?: number;
  headers?: Record<string, string>;
  /** Destroy the connection instead of answering (the sender sees a reset). */
  reset?: boolean;
}

export type Plan = Behaviour[] | ((request: ReceivedRequest, nth: number) => Behaviour);

/** Everything the receiver saw of one request. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: any;
  webhookId: string;
  /** Date.now() when the whole request had arrived. */
  arrivedAt: number;
  /** 1-based count of requests to this path so far, this one included. */
  nth: number;
}

/**
 * A real HTTP receiver on an ephemeral loopback port, programmable per path (a sequence of
 * behaviours, or a function), that records every request and how many were in flight per path.
 * `stop()` closes the port (connections refused); `start()` opens the same port again.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  /** TCP connections accepted, over the receiver's whole life. */
  connections = 0;
  /** Called for each request once it has arrived, before it is answered. */
  onRequest?: (request: ReceivedRequest) => void;
  private readonly plans = new Map<string, Plan>();
  private readonly inFlight = new Map<string, number>();
  private readonly maxInFlight = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server?: Server;
  port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.start();
    return receiver;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 30_000;
    server.on('connection', (socket: Socket) => {
      this.connections += 1;
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

  /** Closes the port and every connection; requests waiting for an answer are cut off. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** `http://127.0.0.1:<port><path>`, or with another host name (e.g. `localhost`) and scheme. */
  url(path: string, host = '127.0.0.1', scheme = 'http'): string {
    return `${scheme}://${host}:${this.port}${path}`;
  }

  /** How the requests to `path` are answered, in order; after the list runs out, 200. */
  plan(path: string, plan: Plan): void {
    this.plans.set(path, plan);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** The most requests to `path` that were ever in flight at once. */
  maxConcurrency(path: string): number {
    return this.maxInFlight.get(path) ?? 0;
  }

  inFlightAt(path: string): number {
    return this.inFlight.get(path) ?? 0;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const now = (this.inFlight.get(path) ?? 0) + 1;
    this.inFlight.set(path, now);
    this.maxInFlight.set(path, Math.max(now, this.maxInFlight.get(path) ?? 0));
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.inFlight.set(path, (this.inFlight.get(path) ?? 1) - 1);
    };
    res.once('finish', finish);
    res.once('close', finish);

    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = undefined;
      }
      const nth = this.at(path).length + 1;
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        rawBody,
        json,
        webhookId: String(req.headers['webhook-id'] ?? ''),
        arrivedAt: Date.now(),
        nth,
      };
      this.requests.push(request);
      this.onRequest?.(request);
      const plan = this.plans.get(path);
      const behaviour: Behaviour = (typeof plan === 'function' ? plan(request, nth) : plan?.[nth - 1]) ?? {};
      const answer = () => {
        if (behaviour.reset) return req.socket.destroy();
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'text/plain', ...behaviour.headers });
        res.end('ok');
      };
      if (!behaviour.delayMs) return answer();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer();
      }, behaviour.delayMs);
      this.timers.add(timer);
    });
  }
}
