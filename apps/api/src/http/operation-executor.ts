import { Injectable } from '@nestjs/common';
import { Command, CommandBus, QueryBus } from '@nestjs/cqrs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '@gw/http-listener';
import { ApiMetrics } from '../metrics/api-metrics';
import { OPERATION_ROUTES } from '../operations';
import { checkParams } from './check-params';
import { FailureAnswers } from './failure-answers';
import type { HostName, Message, Route } from './operation';
import type { RequestParams } from './request-params';

interface Bound {
  route: Route;
  /** Positions of `:name` segments in the path, for path parameters. */
  pathParams: Array<[index: number, name: string]>;
}

/**
 * Executes a routed request's operation: its parameters checked against the route's DTO, its
 * command or query built, and executed on @nestjs/cqrs's CommandBus or QueryBus, which finds the
 * handler from the message's class; then the answer. No framework router runs per request; the
 * transport has already routed and parsed it.
 */
@Injectable()
export class OperationExecutor {
  private readonly bound = new Map<string, Bound>();

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly failures: FailureAnswers,
    /** Also read by the listeners, which record each answer as it finishes. */
    readonly metrics: ApiMetrics,
  ) {
    for (const route of OPERATION_ROUTES) {
      const pathParams = route.path
        .split('/')
        .flatMap((segment, index): Array<[number, string]> =>
          segment.startsWith(':') ? [[index, segment.slice(1)]] : [],
        );
      this.bound.set(`${route.host} ${route.path}`, { route, pathParams });
    }
  }

  /** Runs the operation at `pattern` (a route of `host`) and answers; never throws. The internal
   * host's `/metrics` is answered here too, behind the same bearer check and failure answers. */
  async execute(
    host: HostName,
    pattern: string,
    path: string,
    params: RequestParams,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    try {
      if (host === 'internal' && pattern === '/metrics') {
        const text = await this.metrics.text();
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
        res.end(text);
        return;
      }
      const bound = this.bound.get(`${host} ${pattern}`);
      if (!bound) throw new Error(`no operation at ${host} ${pattern}`);
      const { route } = bound;
      const dto = checkParams(route.dto, params);
      const result = await this.send(route.build(dto, this.pathParams(bound, path)));
      sendJson(res, route.status, { success: true, ...(result as object) });
    } catch (error) {
      this.failures.send(error, host, req, res);
    }
  }

  private send(message: Message): Promise<unknown> {
    return message instanceof Command ? this.commands.execute(message) : this.queries.execute(message);
  }

  private pathParams(bound: Bound, path: string): Record<string, string> {
    if (bound.pathParams.length === 0) return {};
    const segments = path.split('/');
    // The transport has checked that the path's percent-escapes decode.
    return Object.fromEntries(bound.pathParams.map(([index, name]) => [name, decodeURIComponent(segments[index])]));
  }
}
