import { routeIn, type RouteDecision } from '@gw/http-listener';
import { ROUTES, type HostName } from './operations';

export { ROUTES, type HostName };

/** Where a request to `host` goes: an operation, or a routing failure (404, or 405 with `Allow`). */
export function routeRequest(host: HostName, method: string, path: string): RouteDecision {
  return routeIn(ROUTES[host], method, path);
}
