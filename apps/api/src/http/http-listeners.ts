import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Codes, failureEnvelope } from '@gw/contract';
import { redactUrl, type Logger } from '@gw/logging';
import type { ContractRequest } from './contract-params';
import { parseBody, parseQuery, readBody, UnreadableBody, type RequestParams } from './request-params';
import { failureStatus } from './failure-status';
import { routeRequest, type HostName } from './routes';
import { sendJson } from './send-json';

/** How a host admits requests: before their body is read (the ingest host's bearer token), and once
 * their parameters are read (rate limits: the seconds to wait, 0 to go on). */
export interface HostOptions {
  authorize?: (req: IncomingMessage) => boolean;
  admit?: (params: RequestParams, source: string) => number;
}

export interface Listener {
  host: HostName;
  server: Server;
  port: number;
}

/**
 * The transport in front of Nest, one server per host of CONTRACT section 1: routing failures
 * (404/405), `/healthz`, reading and parsing the body, and the request log. Operations reach Nest
 * under `/{host}/...`, so each host only ever sees its own operations.
 */
export function createHostHandler(host: HostName, app: RequestListener, logger: Logger, options: HostOptions = {}): RequestListener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const rawUrl = req.url ?? '/';
    res.on('finish', () => {
      logger.info('request', {
        host,
        method: req.method,
        path: redactUrl(rawUrl),
        status: res.statusCode,
        durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    void handle(host, app, req, res, rawUrl, options).catch((error: unknown) => {
      // A client that went away mid-request is routine, not a fault of ours.
      if (req.destroyed || (error as { code?: string }).code === 'ECONNRESET') {
        logger.info('client went away', { host, path: redactUrl(rawUrl) });
        return;
      }
      logger.error('transport failure', { error });
      if (!res.headersSent) {
        sendJson(res, 500, failureEnvelope([{ code: Codes.Unavailable, message: 'internal error; retry the request' }]));
      }
    });
  };
}

async function handle(
  host: HostName,
  app: RequestListener,
  req: IncomingMessage,
  res: ServerResponse,
  rawUrl: string,
  options: HostOptions,
): Promise<void> {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q + 1);
  const method = req.method ?? 'GET';
  const route = routeRequest(host, method, path);
  if (route.kind === 'not-found') {
    req.resume();
    // The path is not echoed: a client may have put a secret in it by mistake.
    sendJson(res, 404, failureEnvelope([{ code: Codes.UnknownOperation, message: 'unknown operation' }]));
    return;
  }
  if (route.kind === 'method-not-allowed') {
    req.resume();
    sendJson(res, 405, failureEnvelope([{ code: Codes.UnknownOperation, message: `${path} does not take ${method}` }]), {
      allow: route.allow,
    });
    return;
  }
  if (!decodable(path)) {
    // A path parameter (the ingest host's instance id) with a malformed percent-escape.
    req.resume();
    const malformed = [{ code: Codes.MalformedParameter, field: 'path', message: 'the path has a malformed percent-escape' }];
    sendJson(res, host === 'internal' ? 400 : 200, failureEnvelope(malformed));
    return;
  }
  if (path === '/healthz') {
    req.resume();
    sendJson(res, 200, { success: true, status: 'ok' });
    return;
  }

  if (options.authorize && !options.authorize(req)) {
    req.resume();
    const refusal = [{ code: Codes.IngestAuthFailed, message: 'missing or wrong bearer token' }];
    sendJson(res, failureStatus(host, refusal), failureEnvelope(refusal), { 'www-authenticate': 'Bearer' });
    return;
  }

  let body = new Map<string, unknown[]>();
  try {
    const raw = await readBody(req);
    // Account-host operations take the query string only; their body is read (to its limit) and dropped.
    if (host !== 'account') body = parseBody(req.headers['content-type'], raw, host === 'internal' ? ['application/json'] : undefined);
  } catch (error) {
    if (!(error instanceof UnreadableBody)) throw error;
    // An oversized body is not read to its end, so the connection cannot be reused.
    sendJson(res, failureStatus(host, [error.violation], error.tooLarge), failureEnvelope([error.violation]), error.tooLarge ? { connection: 'close' } : {});
    return;
  }
  // The ingest host takes its parameters from the JSON body and the path only.
  const query = host === 'internal' ? new Map<string, unknown[]>() : parseQuery(search);
  const params = { query, body };
  // Rate limits come before any parameter check or store access, and outside the framework: this
  // is the hot path of every request.
  const wait = options.admit?.(params, req.socket.remoteAddress ?? '') ?? 0;
  if (wait > 0) {
    const throttled = [{ code: Codes.TooManyRequests, message: `too many requests; retry after ${wait} s` }];
    sendJson(res, failureStatus(host, throttled), failureEnvelope(throttled), { 'retry-after': String(wait) });
    return;
  }
  (req as IncomingMessage & ContractRequest).contractParams = params;
  req.url = `/${host}${path}`;
  res.setHeader('cache-control', 'no-store');
  app(req, res);
}

/**
 * Requests that Node's HTTP parser refuses before any handler runs (bad framing, oversized headers,
 * a timeout, CONNECT) still get the contract's JSON envelope, never an empty answer.
 */
function answerClientError(host: HostName, error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = error.code ?? '';
  const [status, reason, violation] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', { code: Codes.UnreadableBody, message: 'the request headers are too large' }]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { code: Codes.UnreadableBody, message: 'the request was not received in time' }]
        : code === 'HPE_INVALID_METHOD' || code === 'HPE_CONNECT'
          ? [405, 'Method Not Allowed', { code: Codes.UnknownOperation, message: 'unknown method' }]
          : [400, 'Bad Request', { code: Codes.UnreadableBody, message: 'the request cannot be read as HTTP' }];
  const body = JSON.stringify(failureEnvelope([violation as { code: typeof Codes.UnreadableBody; message: string }]));
  // An unknown method on a known path still says which methods the path takes.
  const path = /^\S+ (\S+)/.exec(error.rawPacket?.toString('latin1') ?? '')?.[1]?.split('?')[0] ?? '';
  const route = status === 405 ? routeRequest(host, 'UNKNOWN', path) : undefined;
  const allow = route?.kind === 'method-not-allowed' ? `allow: ${route.allow}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\n${allow}connection: close\r\n\r\n${body}`,
  );
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Starts one server per host and resolves once all of them listen. */
export async function listen(
  hosts: Array<{ host: HostName; port: number; options?: HostOptions }>,
  bindAddress: string,
  app: RequestListener,
  logger: Logger,
): Promise<Listener[]> {
  return Promise.all(
    hosts.map(
      ({ host, port, options }) =>
        new Promise<Listener>((resolve, reject) => {
          const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, createHostHandler(host, app, logger, options));
          server.keepAliveTimeout = 5_000;
          server.on('clientError', (error: Error, socket: Duplex) => answerClientError(host, error, socket));
          server.on('connect', (req: IncomingMessage, socket: Duplex) =>
            answerClientError(host, Object.assign(new Error('CONNECT'), { code: 'HPE_CONNECT', rawPacket: Buffer.from(`CONNECT ${req.url}`) }), socket),
          );
          server.once('error', reject);
          server.listen(port, bindAddress, () => {
            const bound = (server.address() as AddressInfo).port;
            logger.info('listening', { host, address: bindAddress, port: bound });
            resolve({ host, server, port: bound });
          });
        }),
    ),
  );
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
