// The one webhook receiver of the e2e tests, the reliability suite, the soak and the bench. The
// bench runs compiled with plain node: it imports this as `@gw/testing/receiver`, without the
// Jest-only app-process.ts of the index, so this file imports nothing of the workspace.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

let epochOrigin = Date.now() - performance.now();

/**
 * Wall-clock milliseconds with sub-millisecond resolution, comparable across processes (the bench
 * subtracts a send time taken in a child process from an arrival time taken here; the e2e tests
 * compare arrivals with times the apps took with Date.now()). The monotonic clock gives the
 * resolution; it follows the wall clock whenever the two part by more than a millisecond, since the
 * wall clock may be stepped (by NTP, or when a paused VM resumes) while the monotonic one is not.
 */
export function epochMs(): number {
  const wall = Date.now();
  const precise = epochOrigin + performance.now();
  if (precise < wall - 1 || precise > wall + 1) epochOrigin = wall - performance.now();
  return epochOrigin + performance.now();
}

/**
 * How the receiver answers one request; `{}` is 200 at once. Everything but a reset waits `delayMs`
 * first (the request stays in flight meanwhile) and answers only if the sender is still connected.
 * - 'ok' and 'status' (or no kind): `status` (default 200) with `headers`; the kinds only label
 *   what a test meant, for its counts.
 * - 'timeout': a 200 after `delayMs`, meant to come after the sender's timeout. It never counts as
 *   delivered, so that a sender that waited for it anyway shows up as an undelivered notification.
 * - 'reset': the connection is destroyed without an answer.
 */
export interface Behaviour {
  kind?: 'ok' | 'status' | 'timeout' | 'reset';
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Everything the receiver saw of one request. `Body` types `json` for callers that know it. */
export interface ReceivedRequest<Body = any> {
  method: string;
  /** The path without the query. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: Body | undefined;
  /** The `webhook-id` header; '' without one. */
  webhookId: string;
  /** epochMs() when the whole request had arrived. */
  arrivedAt: number;
  /** 1-based count of requests to this path so far, this one included. */
  nth: number;
  /** How it was answered (set once chosen). */
  behaviour: Behaviour;
  /** A 2xx was handed to the connection in full, and not as a 'timeout'. */
  delivered: boolean;
}

/** How the requests to one path are answered: a list in order (200 once it runs out), or a function. */
export type Plan<Body = any> = Behaviour[] | ((request: ReceivedRequest<Body>, nth: number) => Behaviour);

export interface ReceiverOptions<Body = any> {
  /** Decides every answer. Without it, the plan of the request's path (see `plan`), else 200. */
  choose?: (request: ReceivedRequest<Body>) => Behaviour;
  /** false: keep no record (`requests` stays empty; the hooks still see every request), so that a
   * soak or a bench of many thousands of requests does not grow the heap of the process it measures. */
  keep?: boolean;
  /** A certificate and its key: the receiver speaks HTTPS (`connections` still counts TCP connections). */
  tls?: { cert: string; key: string };
}

/**
 * A real HTTP receiver on an ephemeral loopback port. It records every request and how many were
 * in flight per path. `stop()` closes the port and every connection (requests waiting for an answer
 * are cut off, connections are refused); `start()` opens the same port again.
 */
export class WebhookReceiver<Body = any> {
  readonly requests: ReceivedRequest<Body>[] = [];
  /** TCP connections accepted, over the receiver's whole life. */
  connections = 0;
  port = 0;
  /** Called for each request once it has arrived, before its answer is chosen. */
  onRequest?: (request: ReceivedRequest<Body>) => void;
  /** Called when `request.delivered` becomes true. */
  onDelivered?: (request: ReceivedRequest<Body>) => void;
  private readonly choose: (request: ReceivedRequest<Body>) => Behaviour;
  private readonly keep: boolean;
  private readonly tls?: { cert: string; key: string };
  private readonly plans = new Map<string, Plan<Body>>();
  private readonly counts = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly maxInFlight = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server?: Server;

  constructor(options: ReceiverOptions<Body> = {}) {
    this.keep = options.keep ?? true;
    this.tls = options.tls;
    this.choose =
      options.choose ??
      ((request) => {
        const plan = this.plans.get(request.path);
        return (typeof plan === 'function' ? plan(request, request.nth) : plan?.[request.nth - 1]) ?? {};
      });
  }

  static async start<Body = any>(options?: ReceiverOptions<Body>): Promise<WebhookReceiver<Body>> {
    const receiver = new WebhookReceiver<Body>(options);
    await receiver.start();
    return receiver;
  }

  async start(): Promise<void> {
    const handler = (req: IncomingMessage, res: ServerResponse) => this.handle(req, res);
    const server = this.tls ? createTlsServer(this.tls, handler) : createServer(handler);
    // Senders keep connections alive as they would with a real receiver; Node's agent follows the
    // Keep-Alive hint this sends, so it never reuses a connection the receiver is closing.
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

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // server.close() alone waits for kept-alive connections to go idle and time out.
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** `http://127.0.0.1:<port><path>` (https with `tls`), or with another host name (e.g. `localhost`) and scheme. */
  url(path: string, host = '127.0.0.1', scheme = this.tls ? 'https' : 'http'): string {
    return `${scheme}://${host}:${this.port}${path}`;
  }

  /** How the requests to `path` are answered from now on (with the default `choose`). */
  plan(path: string, plan: Plan<Body>): void {
    this.plans.set(path, plan);
  }

  at(path: string): ReceivedRequest<Body>[] {
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
    this.track(path, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedAt = epochMs();
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const nth = (this.counts.get(path) ?? 0) + 1;
      this.counts.set(path, nth);
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const json = parseJson(rawBody);
      const request: ReceivedRequest<Body> = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        rawBody,
        json,
        webhookId,
        arrivedAt,
        nth,
        behaviour: {},
        delivered: false,
      };
      if (this.keep) this.requests.push(request);
      this.onRequest?.(request);
      const behaviour = (request.behaviour = this.choose(request));
      if (!behaviour.delayMs) return this.answer(request, req, res);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.answer(request, req, res);
      }, behaviour.delayMs);
      this.timers.add(timer);
    });
  }

  private answer(request: ReceivedRequest<Body>, req: IncomingMessage, res: ServerResponse): void {
    const { kind, status = 200, headers = {} } = request.behaviour;
    if (kind === 'reset') return void req.socket.destroy();
    if (res.destroyed) return; // the sender gave up (its timeout) or went away
    if (kind !== 'timeout' && status >= 200 && status < 300) {
      res.once('finish', () => {
        request.delivered = true;
        this.onDelivered?.(request);
      });
    }
    // Headers set one by one (not writeHead) so that Node adds a Content-Length, or none for a 204.
    res.statusCode = status;
    for (const [name, value] of Object.entries({ 'content-type': 'text/plain', ...headers }))
      res.setHeader(name, value);
    res.end('ok');
  }

  /** Counts the request in flight on `path` until its answer is written or its connection closes. */
  private track(path: string, res: ServerResponse): void {
    const now = (this.inFlight.get(path) ?? 0) + 1;
    this.inFlight.set(path, now);
    this.maxInFlight.set(path, Math.max(now, this.maxInFlight.get(path) ?? 0));
    let done = false;
    const finish = () => {
      if (!done) this.inFlight.set(path, (this.inFlight.get(path) ?? 1) - 1);
      done = true;
    };
    res.once('finish', finish).once('close', finish);
  }
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
