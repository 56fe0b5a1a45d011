/** The hosts of CONTRACT section 1 and the operations each one takes, by path and method. */
export type HostName = 'account' | 'instance';

export const ROUTES: Record<HostName, Record<string, readonly string[]>> = {
  account: {
    '/newInstance': ['GET'],
    '/renewInstance': ['GET'],
    '/listInstances': ['GET'],
    '/webhook': ['GET'],
    '/healthz': ['GET'],
  },
  instance: {
    '/webhook': ['GET', 'POST'],
    '/getWebhookStatus': ['GET', 'POST'],
    '/healthz': ['GET'],
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
  // HEAD is answered like GET by HTTP's rules, so it is allowed wherever GET is.
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
  if (!allowed.includes(method)) return { kind: 'method-not-allowed', allow: allowed.join(', ') };
  return { kind: 'operation', path };
}
