import { routeIn, type RouteDecision, type RouteTable } from '@gw/http-listener';
import { DASHBOARD_ROUTES } from '../dashboard/dashboard-routes';
import { DOCS_ROUTES } from '../openapi/docs-routes';
import { OPERATION_ROUTES } from '../operations';
import type { HostName } from './operation';

export type { HostName };

/** Paths served outside the operations: readiness on every host, metrics on the internal one,
 * the dashboard on the account host, the API description on both public hosts (docs/api.md section 10). */
const SERVICE_ROUTES: Record<HostName, RouteTable> = {
  account: { '/healthz': ['GET', 'HEAD'], ...DASHBOARD_ROUTES, ...DOCS_ROUTES },
  instance: { '/healthz': ['GET', 'HEAD'], ...DOCS_ROUTES },
  internal: { '/healthz': ['GET', 'HEAD'], '/metrics': ['GET'] },
};

/** Each host's routes: its operations' (operations.ts) and its service routes. */
export const ROUTES: Record<HostName, RouteTable> = Object.fromEntries(
  (['account', 'instance', 'internal'] as const).map((host) => [
    host,
    {
      ...Object.fromEntries(
        OPERATION_ROUTES.filter((route) => route.host === host).map((route) => [route.path, route.methods]),
      ),
      ...SERVICE_ROUTES[host],
    },
  ]),
) as Record<HostName, RouteTable>;

/** Where a request to `host` goes: an operation, or a routing failure (404, or 405 with `Allow`). */
export function routeRequest(host: HostName, method: string, path: string): RouteDecision {
  return routeIn(ROUTES[host], method, path);
}
