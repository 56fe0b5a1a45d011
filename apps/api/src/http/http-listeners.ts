import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Codes, failureEnvelope } from '@gw/contract';
import {
  routingFailure,
  sendFailure,
  sendHealthy,
  sendJson,
  startListener,
  type Listener,
  type ListenerSpec,
} from '@gw/http-listener';
import { redactUrl, type Logger } from '@gw/logging';
import { operationName, PREFLIGHT } from '../metrics/operation-names';
import { tagFailure, tagOperation } from '../metrics/request-metrics';
import type { OperationExecutor } from './operation-executor';
import { parseBody, parseQuery, readBody, UnreadableBody } from './request-params';
import { failureStatus } from './failure-status';
import type { StaticFiles } from './static-files';
import { ROUTES, routeRequest, type HostName } from './routes';

/** How a host admits requests, by the source address that sent them (docs/api.md section 2). */
export interface HostOptions {
  /** The ingest host's bearer token check, made before the body is read. */
  authorize?: (req: IncomingMessage) => boolean;
  /** Seconds the source must wait because of its failed requests (0: it may go on). */
  sourceWait?: (source: string) => number;
  /** The source sent a request that failed: an unreadable body on a public host, a wrong bearer
   * token on the ingest host. */
  failed?: (source: string) => void;
  /** Files served next to the operations (the dashboard, the API descriptions). */
  files?: StaticFiles;
}

/**
 * The API's one HTTP pipeline, a server per host of docs/api.md section 1: routing once (404, 405 with
 * `Allow`, CORS preflights), `/healthz`, per-source limits, the ingest host's bearer token, reading
 * and parsing the body, the request log; then the executor runs the operation. Each host only
 * ever routes to its own operations. `onRefused` gives the request log and metrics what the
 * listener refuses before the pipeline sees it.
 */
function createHostHandler(
  host: HostName,
  executor: OperationExecutor,
  logger: Logger,
  options: HostOptions = {},
): { handler: RequestListener; onRefused: NonNullable<ListenerSpec['onRefused']> } {
  const observe = requestObserver(host, executor, logger);
  const handler: RequestListener = (req, res) => {
    const rawUrl = observe(req, res);
    // Every answer of the instance host may be read cross-origin (docs/api.md section 2); no cookies
    // are involved, so no credentialed CORS.
    if (host === 'instance') res.setHeader('access-control-allow-origin', '*');
    void handle(host, executor, req, res, rawUrl, options).catch((error: unknown) => {
      // A client that went away mid-request is routine, not a fault of ours.
      if (req.destroyed || (error as { code?: string }).code === 'ECONNRESET') {
        logger.info('client went away', { host, path: redactUrl(rawUrl) });
        return;
      }
      logger.error('transport failure', { error });
      if (!res.headersSent) {
        const failure = [{ code: Codes.Unavailable, message: 'internal error; retry the request' }];
        tagFailure(res, failure);
        sendJson(res, 500, failureEnvelope(failure));
      }
    });
  };
  // What the listener refuses before the handler (no Host) is logged and counted all the same.
  const onRefused: NonNullable<ListenerSpec['onRefused']> = (req, res, violations) => {
    observe(req, res);
    tagFailure(res, violations);
  };
  return { handler, onRefused };
}

/** Makes the request line of the log and the request metrics of each answer once it is sent; returns
 * the request's URL as sent. */
function requestObserver(
  host: HostName,
  executor: OperationExecutor,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => string {
  const requests = executor.metrics.requests;
  // The level is fixed for the process's life: below info, the request line's fields (the path
  // redacted, the duration) are not made at all.
  const logRequests = logger.enabled?.('info') ?? true;
  return (req, res) => {
    const started = process.hrtime.bigint();
    const rawUrl = req.url ?? '/';
    res.on('finish', () => {
      requests.finished(host, res, started);
      if (!logRequests) return;
      logger.info('request', {
        host,
        method: req.method,
        path: redactUrl(rawUrl),
        status: res.statusCode,
        durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    return rawUrl;
  };
}

async function handle(
  host: HostName,
  executor: OperationExecutor,
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
  if (route.kind === 'method-not-allowed' && method === 'OPTIONS' && host === 'instance' && path !== '/healthz') {
    // A CORS preflight: the dashboard, served by the account host, calls the instance host.
    req.resume();
    tagOperation(res, PREFLIGHT);
    res.writeHead(204, {
      'access-control-allow-methods': route.allow,
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '600',
      'cache-control': 'no-store',
    });
    res.end();
    return;
  }
  if (route.kind !== 'operation') {
    req.resume();
    // The path is not made a metric label either: a client may have put a secret in it by mistake.
    const answer = routingFailure(route, method);
    tagFailure(res, answer.violations);
    sendFailure(res, answer);
    return;
  }
  tagOperation(res, operationName(host, route.pattern));
  if (options.files?.serves(route.pattern)) {
    // Before the per-source wait: files never count against a source (docs/api.md section 2). And
    // before the percent-escape check: a file's name is matched as sent, so `/assets/%zz` is simply
    // no such file (404, 0013), not a malformed parameter.
    req.resume();
    options.files.serve(route.pattern, path, req, res);
    return;
  }
  if (!decodable(path)) {
    // A path parameter (the ingest host's instance id) with a malformed percent-escape.
    req.resume();
    const malformed = [
      { code: Codes.MalformedParameter, field: 'path', message: 'the path has a malformed percent-escape' },
    ];
    tagFailure(res, malformed);
    sendJson(res, host === 'internal' ? 400 : 200, failureEnvelope(malformed));
    return;
  }
  if (path === '/healthz') {
    req.resume();
    sendHealthy(res);
    return;
  }

  const source = req.socket.remoteAddress ?? '';
  const wait = options.sourceWait?.(source) ?? 0;
  if (wait > 0) {
    req.resume();
    const throttled = [
      { code: Codes.TooManyRequests, message: `too many failed requests from this address; retry after ${wait} s` },
    ];
    tagFailure(res, throttled);
    sendJson(res, failureStatus(host, throttled), failureEnvelope(throttled), { 'retry-after': String(wait) });
    return;
  }
  if (options.authorize && !options.authorize(req)) {
    req.resume();
    options.failed?.(source);
    const refusal = [{ code: Codes.IngestAuthFailed, message: 'missing or wrong bearer token' }];
    tagFailure(res, refusal);
    sendJson(res, failureStatus(host, refusal), failureEnvelope(refusal), { 'www-authenticate': 'Bearer' });
    return;
  }

  let body = new Map<string, unknown[]>();
  try {
    const raw = await readBody(req);
    // Account-host operations take the query string only; their body is read (to its limit) and dropped.
    if (host !== 'account')
      body = parseBody(req.headers['content-type'], raw, host === 'internal' ? ['application/json'] : undefined);
  } catch (error) {
    if (!(error instanceof UnreadableBody)) throw error;
    // A stage-1 failure on a public host; the ingest host counts only wrong bearer tokens.
    if (host !== 'internal') options.failed?.(source);
    tagFailure(res, [error.violation]);
    // An oversized body is not read to its end, so the connection cannot be reused.
    sendJson(
      res,
      failureStatus(host, [error.violation], error.tooLarge),
      failureEnvelope([error.violation]),
      error.tooLarge ? { connection: 'close' } : {},
    );
    return;
  }
  // The ingest host takes its parameters from the JSON body and the path only.
  const query = host === 'internal' ? new Map<string, unknown[]>() : parseQuery(search);
  await executor.execute(host, route.pattern, path, { query, body }, req, res);
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The variable that sets each host's port (README, Configuration), named when the port is taken. */
const PORT_VARIABLES: Record<HostName, string> = {
  account: 'ACCOUNT_PORT',
  instance: 'API_PORT',
  internal: 'INTERNAL_PORT',
};

/** Starts one listener per host and resolves once all of them listen. */
export function listenOnHosts(
  hosts: Array<{ host: HostName; port: number; address: string; options?: HostOptions }>,
  executor: OperationExecutor,
  logger: Logger,
): Promise<Listener[]> {
  return Promise.all(
    hosts.map(({ host, port, address, options }) =>
      startListener(
        {
          name: host,
          port,
          address,
          portVariable: PORT_VARIABLES[host],
          routes: ROUTES[host],
          ...createHostHandler(host, executor, logger, options),
          ...(host === 'instance' ? { refusalHeaders: { 'access-control-allow-origin': '*' } } : {}),
        },
        logger,
      ),
    ),
  );
}
