import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * A minimal webhook receiver on loopback: answers 200 at once and hands each request (headers,
 * body, arrival time) to `onRequest`. It is the same receiver for the notifier and for the baseline.
 */
export class BenchReceiver {
  onRequest: (headers: IncomingHttpHeaders, body: string, arrivedAt: number) => void = () => undefined;
  port = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedAt = epochMs();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
      this.onRequest(req.headers, Buffer.concat(chunks).toString('utf8'), arrivedAt);
    });
  });

  static async start(): Promise<BenchReceiver> {
    const receiver = new BenchReceiver();
    const { server } = receiver;
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket: Socket) => {
      receiver.sockets.add(socket);
      socket.once('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.port = (server.address() as AddressInfo).port;
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

/**
 * Counts the messages carried by distinct notifications (by `webhook-id`; a notification may carry
 * several when batched) and notes when the last new one arrived.
 */
export class ArrivalCounter {
  private readonly seen = new Set<string>();
  private items = 0;
  duplicates = 0;
  lastArrival = 0;
  private waiter?: { count: number; resolve: () => void };

  /** Messages arrived, each counted once. */
  get count(): number {
    return this.items;
  }

  /** Distinct notifications arrived. */
  get notifications(): number {
    return this.seen.size;
  }

  record(id: string, items: number, arrivedAt: number): void {
    if (this.seen.has(id)) {
      this.duplicates += 1;
      return;
    }
    this.seen.add(id);
    this.items += items;
    this.lastArrival = arrivedAt;
    if (this.waiter && this.items >= this.waiter.count) this.waiter.resolve();
  }

  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  until(count: number, timeoutMs: number): Promise<void> {
    if (this.items >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.items} of ${count} messages arrived within ${timeoutMs} ms`)), timeoutMs);
      this.waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

/** The ids of the messages a notification body carries. */
export function messageIdsOf(body: string): string[] {
  return ((JSON.parse(body) as { messages?: Array<{ id: string }> }).messages ?? []).map((m) => m.id);
}
