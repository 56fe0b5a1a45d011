/** The hosts of CONTRACT section 1 and the operations each one takes, by path and method. */
export type HostName = 'account' | 'instance' | 'internal';

/** Paths by host; a segment written `:name` matches any one non-empty segment. */
export const ROUTES: Record<HostName, Record<string, readonly string[]>> = {
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
    '/healthz': ['GET', 'HEAD'],
  },
};

/** Where a request goes: to an operation, or a routing failure (404 or 405 with `Allow`). */
export type RouteDecision =
  | { kind: 'operation'; path: string }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string };

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((segment, i) => (segment.startsWith(':') ? got[i] !== '' : segment === got[i]));
}

export function routeRequest(host: HostName, method: string, path: string): RouteDecision {
  const pattern = Object.keys(ROUTES[host]).find((p) => matches(p, path));
  if (!pattern) return { kind: 'not-found' };
  const methods = ROUTES[host][pattern];
  // Operations take no HEAD: several GET operations change state (newInstance creates an instance
  // whose token only the answer's body shows), so a HEAD must not run them.
  if (!methods.includes(method)) return { kind: 'method-not-allowed', allow: methods.join(', ') };
  return { kind: 'operation', path };
}
