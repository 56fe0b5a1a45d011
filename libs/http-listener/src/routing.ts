/** Paths a listener serves and the methods each takes; a segment written `:name` matches any one
 * non-empty segment. */
export type RouteTable = Record<string, readonly string[]>;

/** Where a request goes: to an operation, or a routing failure (404 or 405 with `Allow`). */
export type RouteDecision =
  | { kind: 'operation'; path: string; pattern: string }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string };

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return (
    want.length === got.length &&
    want.every((segment, i) => (segment.startsWith(':') ? got[i] !== '' : segment === got[i]))
  );
}

/** Routes one request by path, then method. */
export function routeIn(routes: RouteTable, method: string, path: string): RouteDecision {
  // Most paths are literal routes: one lookup; patterns with `:name` segments are tried after.
  const pattern =
    Object.hasOwn(routes, path) && !path.includes('/:') ? path : Object.keys(routes).find((p) => matches(p, path));
  if (!pattern) return { kind: 'not-found' };
  const methods = routes[pattern];
  if (!methods.includes(method)) return { kind: 'method-not-allowed', allow: methods.join(', ') };
  return { kind: 'operation', path, pattern };
}
