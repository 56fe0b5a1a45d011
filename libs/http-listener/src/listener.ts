import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Codes, failureEnvelope, type Violation } from '@gw/contract';
import type { Logger } from '@gw/logging';
import { routeIn, type RouteTable } from './routing';

/** One port the service listens on. */
export interface ListenerSpec {
  /** Name in logs and in the `ready` line's ports (`account`, `notifier`, ...). */
  name: string;
  port: number;
  address: string;
  /** The environment variable that sets `port` (`ACCOUNT_PORT`, ...), named when the port is taken. */
  portVariable?: string;
  /** The routes served, so that a request refused by Node's parser still gets `Allow` on a 405. */
  routes: RouteTable;
  handler: RequestListener;
}

export interface Listener {
  name: string;
  server: Server;
  port: number;
}

/**
 * The port a listener was given cannot be had: another process holds it (EADDRINUSE) or the user
 * may not bind it (EACCES). The message names the port, the address and the variable to change,
 * since Node's own error names none of them in words an operator acts on.
 */
export class PortUnavailable extends Error {
  constructor(
    readonly spec: Pick<ListenerSpec, 'name' | 'port' | 'address' | 'portVariable'>,
    readonly code: 'EADDRINUSE' | 'EACCES',
  ) {
    const what = `port ${spec.port} on ${spec.address} (${spec.portVariable ?? 'its port'}, the ${spec.name} listener)`;
    const why = code === 'EADDRINUSE' ? 'is already in use by another process' : 'may not be used by this user';
    const fix = spec.portVariable ? `set ${spec.portVariable} to a free port` : 'choose a free port';
    super(`${what} ${why}: stop the process that holds it, or ${fix}`);
    this.name = 'PortUnavailable';
  }
}

/** Limits every port shares: a slow or idle client cannot hold a connection for long. The timeouts
 * are enforced by a periodic check, every second rather than Node's default 30 s. */
const SERVER_OPTIONS = { requestTimeout: 30_000, headersTimeout: 15_000, connectionsCheckingInterval: 1_000 };
const KEEP_ALIVE_MS = 5_000;

/**
 * Starts one HTTP server with the service's timeouts, and with the contract's JSON envelope for
 * whatever Node's parser refuses before a handler runs (docs/api.md section 2: never an empty answer).
 */
export function startListener(spec: ListenerSpec, logger: Logger): Promise<Listener> {
  return new Promise<Listener>((resolve, reject) => {
    const server = createServer(SERVER_OPTIONS, spec.handler);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.on('clientError', (error: Error, socket: Duplex) => answerClientError(spec.routes, error, socket));
    server.on('connect', (req: IncomingMessage, socket: Duplex) =>
      answerClientError(
        spec.routes,
        Object.assign(new Error('CONNECT'), { code: 'HPE_CONNECT', rawPacket: Buffer.from(`CONNECT ${req.url}`) }),
        socket,
      ),
    );
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortUnavailable(spec, error.code) : error),
    );
    server.listen(spec.port, spec.address, () => {
      const port = (server.address() as AddressInfo).port;
      logger.info('listening', { host: spec.name, address: spec.address, port });
      resolve({ name: spec.name, server, port });
    });
  });
}

/** Stops accepting, lets requests in flight finish within `graceMs`, then closes what is left. */
export async function closeListeners(listeners: Listener[], graceMs: number): Promise<void> {
  await Promise.all(
    listeners.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), graceMs);
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}

/** Bad framing, oversized headers, a timeout or CONNECT still get the contract's envelope. */
function answerClientError(
  routes: RouteTable,
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = error.code ?? '';
  const [status, reason, violation]: [number, string, Violation] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          { code: Codes.UnreadableBody, message: 'the request headers are too large' },
        ]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { code: Codes.UnreadableBody, message: 'the request was not received in time' }]
        : code === 'HPE_INVALID_METHOD' || code === 'HPE_CONNECT'
          ? [405, 'Method Not Allowed', { code: Codes.UnknownOperation, message: 'unknown method' }]
          : [400, 'Bad Request', { code: Codes.UnreadableBody, message: 'the request cannot be read as HTTP' }];
  const body = JSON.stringify(failureEnvelope([violation]));
  // An unknown method on a known path still says which methods the path takes.
  const path = /^\S+ (\S+)/.exec(error.rawPacket?.toString('latin1') ?? '')?.[1]?.split('?')[0] ?? '';
  const route = status === 405 ? routeIn(routes, 'UNKNOWN', path) : undefined;
  const allow = route?.kind === 'method-not-allowed' ? `allow: ${route.allow}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\n${allow}connection: close\r\n\r\n${body}`,
  );
}
