import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '@gw/http-listener';
import { ApiMetrics } from '../metrics/api-metrics';
import { checkParams } from './check-params';
import { FailureAnswers } from './failure-answers';
import { OPERATIONS } from '../operations';
import type { HostName, Route } from './operation';

interface MessageHandler {
  execute(message: unknown): Promise<unknown>;
}
import type { RequestParams } from './request-params';

interface Bound {
  route: Route;
  handler: MessageHandler;
  /** Positions of `:name` segments in the path, for path parameters. */
  pathParams: Array<[index: number, name: string]>;
}

/**
 * From a routed request to its handler: parameters checked against the operation's DTO, the command
 * or query built, and the handler (resolved once from Nest's container) run. No framework router runs
 * per request; the transport has already routed and parsed it.
 */
@Injectable()
export class Dispatcher implements OnModuleInit {
  private readonly bound = new Map<string, Bound>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly failures: FailureAnswers,
    /** Also read by the listeners, which record each answer as it finishes. */
    readonly metrics: ApiMetrics,
  ) {}

  /** Resolves each operation's handler once, after Nest has constructed every provider. */
  onModuleInit(): void {
    for (const operation of OPERATIONS) {
      const handler = this.moduleRef.get(operation.handler as Type<MessageHandler>, { strict: false });
      for (const route of operation.routes) {
        const pathParams = route.path
          .split('/')
          .flatMap((segment, index): Array<[number, string]> => (segment.startsWith(':') ? [[index, segment.slice(1)]] : []));
        this.bound.set(`${route.host} ${route.path}`, { route, handler, pathParams });
      }
    }
  }

  /** Runs the operation at `pattern` (a route of `host`) and answers; never throws. */
  async dispatch(host: HostName, pattern: string, path: string, params: RequestParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (host === 'internal' && pattern === '/metrics') {
        const text = await this.metrics.text();
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
        res.end(text);
        return;
      }
      const bound = this.bound.get(`${host} ${pattern}`);
      if (!bound) throw new Error(`no operation at ${host} ${pattern}`);
      const { route, handler } = bound;
      const dto = checkParams(route.dto, params);
      const result = await handler.execute(route.build(dto, this.pathParams(bound, path)));
      sendJson(res, route.status, { success: true, ...(result as object) });
    } catch (error) {
      this.failures.send(error, host, req, res);
    }
  }

  private pathParams(bound: Bound, path: string): Record<string, string> {
    if (bound.pathParams.length === 0) return {};
    const segments = path.split('/');
    // The transport has checked that the path's percent-escapes decode.
    return Object.fromEntries(bound.pathParams.map(([index, name]) => [name, decodeURIComponent(segments[index])]));
  }
}
