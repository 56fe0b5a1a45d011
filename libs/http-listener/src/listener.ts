import {
  createServer,
  validateHeaderName,
  validateHeaderValue,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Codes, failureEnvelope, type Violation } from '@gw/contract';
import type { Logger } from '@gw/logging';
import { routeIn, type RouteTable } from './routing';
import { sendJson } from './send-json';

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
  /** Headers the port's own answers carry that its refusals of what Node cannot parse must carry too
   * (the instance host's `access-control-allow-origin`). */
  refusalHeaders?: Readonly<Record<string, string>>;
  /** Told of a request the listener refuses itself before `handler` sees it (an HTTP/1.1 request
   * without `Host`), before the answer is sent: for the request log and metrics `handler` keeps. */
  onRefused?: (req: IncomingMessage, res: ServerResponse, violations: readonly Violation[]) => void;
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
 * are enforced by a periodic check, every second rather than Node's default 30 s. An HTTP/1.1
 * request without `Host` is refused here (withHostRequired), since Node's own refusal is an empty 400. */
const SERVER_OPTIONS = {
  requestTimeout: 30_000,
  headersTimeout: 15_000,
  connectionsCheckingInterval: 1_000,
  requireHostHeader: false,
};
const KEEP_ALIVE_MS = 5_000;

/**
 * Starts one HTTP server with the service's timeouts, and with the contract's JSON envelope for
 * whatever Node's parser refuses before a handler runs (docs/api.md section 2: never an empty answer).
 */
export function startListener(spec: ListenerSpec, logger: Logger): Promise<Listener> {
  // They are written to the socket as they are: a name or value that could break the head is a bug.
  for (const [name, value] of Object.entries(spec.refusalHeaders ?? {})) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  }
  return new Promise<Listener>((resolve, reject) => {
    const server = createServer(SERVER_OPTIONS, withHostRequired(spec));
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.on('clientError', (error: Error, socket: Duplex) => answerClientError(spec, error, socket));
    server.on('connect', (req: IncomingMessage, socket: Duplex) =>
      answerClientError(
        spec,
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

/** The listener's handler, behind HTTP/1.1's rule that a request names its host (RFC 9112 3.2): one
 * without `Host` is 400 with the envelope. (Each port serves one host: nothing routes by it.) */
function withHostRequired(spec: ListenerSpec): RequestListener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) {
      spec.handler(req, res);
      return;
    }
    const violations = [{ code: Codes.UnreadableBody, message: 'an HTTP/1.1 request needs a Host header' }];
    spec.onRefused?.(req, res, violations);
    sendJson(res, 400, failureEnvelope(violations), { ...spec.refusalHeaders, connection: 'close' });
  };
}

type Refusal = [status: number, reason: string, violation: Violation, allow?: string];

const UNREADABLE: Refusal = [
  400,
  'Bad Request',
  { code: Codes.UnreadableBody, message: 'the request cannot be read as HTTP' },
];

/** What Node's parser refused, as the contract answers it (docs/api.md sections 1 and 2). */
function refusalOf(routes: RouteTable, code: string, rawPacket: Buffer | undefined, bytesParsed?: number): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW')
    return [
      431,
      'Request Header Fields Too Large',
      { code: Codes.UnreadableBody, message: 'the request headers are too large' },
    ];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'Request Timeout', { code: Codes.UnreadableBody, message: 'the request was not received in time' }];
  if (code === 'HPE_CONNECT')
    return [405, 'Method Not Allowed', { code: Codes.UnknownOperation, message: 'unknown method' }];
  if (code !== 'HPE_INVALID_METHOD') return UNREADABLE;
  // A method Node does not know: routed by its path as any other request, when it has one (an
  // unknown path is 404, a known one says which methods it takes); a line without one is unreadable.
  const line = rawPacket ? refusedRequest(rawPacket.toString('latin1'), bytesParsed ?? 0) : '';
  const path = /^\S+ (\S+) HTTP\/\d/.exec(line)?.[1]?.split('?')[0];
  if (path === undefined) return UNREADABLE;
  const route = routeIn(routes, 'UNKNOWN', path);
  if (route.kind === 'method-not-allowed')
    return [405, 'Method Not Allowed', { code: Codes.UnknownOperation, message: 'unknown method' }, route.allow];
  return [404, 'Not Found', { code: Codes.UnknownOperation, message: 'unknown operation' }];
}

/**
 * The refused request, from its request line on. The packet Node's parser was given may begin with
 * requests it read before (pipelined on one connection, bodies included); it stopped at
 * `bytesParsed`, inside the method it refused, which holds no white space: the request starts after
 * the last white space before that point, or at the packet's start.
 */
function refusedRequest(packet: string, bytesParsed: number): string {
  let start = Math.min(Math.max(bytesParsed, 0), packet.length);
  while (start > 0 && !WHITE_SPACE.has(packet[start - 1])) start--;
  return packet.slice(start);
}

const WHITE_SPACE = new Set([' ', '\t', '\r', '\n']);

/** Bad framing, oversized headers, a timeout or CONNECT still get the contract's envelope. */
function answerClientError(
  spec: Pick<ListenerSpec, 'routes' | 'refusalHeaders'>,
  error: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, violation, allow] = refusalOf(
    spec.routes,
    error.code ?? '',
    error.rawPacket,
    error.bytesParsed,
  );
  const body = JSON.stringify(failureEnvelope([violation]));
  const extra = Object.entries({ ...spec.refusalHeaders, ...(allow ? { allow } : {}) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\n${extra}connection: close\r\n\r\n${body}`,
  );
}
