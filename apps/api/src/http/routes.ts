/** The hosts of CONTRACT section 1 and the operations each one takes, by path and method. */
export type HostName = 'account' | 'instance';

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
    '/healthz': ['GET', 'HEAD'],
  },
};

/** Where a request goes: to an operation, or a routing failure (404 or 405 with `Allow`). */
export type RouteDecision =
  | { kind: 'operation'; path: string }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string };

export function routeRequest(host: HostName, method: string, path: string): RouteDecision {
  const methods = ROUTES[host][path];
  if (!methods) return { kind: 'not-found' };
  // Operations take no HEAD: several GET operations change state (newInstance creates an instance
  // whose token only the answer's body shows), so a HEAD must not run them.
  if (!methods.includes(method)) return { kind: 'method-not-allowed', allow: methods.join(', ') };
  return { kind: 'operation', path };
}
