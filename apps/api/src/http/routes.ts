import { routeIn, type RouteDecision, type RouteTable } from '@gw/http-listener';

/** The hosts of CONTRACT section 1 and the operations each one takes, by path and method. */
export type HostName = 'account' | 'instance' | 'internal';

/** Paths by host; a segment written `:name` matches any one non-empty segment. */
export const ROUTES: Record<HostName, RouteTable> = {
  account: {
    '/newInstance': ['GET'],
    '/renewInstance': ['GET'],
    '/listInstances': ['GET'],
    '/webhook': ['GET'],
    '/healthz': ['GET', 'HEAD'],
  },
  instance: {
    '/webhook': ['GET', 'POST'],
    '/getWebhookStatus': ['GET', 'POST'],
    '/getWebhookLogs': ['GET', 'POST'],
    '/healthz': ['GET', 'HEAD'],
  },
  internal: {
    '/instances/:instanceid/messages': ['POST'],
    '/instances/:instanceid/acks': ['POST'],
    '/metrics': ['GET'],
    '/healthz': ['GET', 'HEAD'],
  },
};

export function routeRequest(host: HostName, method: string, path: string): RouteDecision {
  // Operations take no HEAD: several GET operations change state (newInstance creates an instance
  // whose token only the answer's body shows), so a HEAD must not run them.
  return routeIn(ROUTES[host], method, path);
}
