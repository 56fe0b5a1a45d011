import type { HostName } from '../http/operation';
import { DOCS_OPERATION_NAMES } from '../openapi/docs-routes';
import { OPERATION_ROUTES } from '../operations';

/** The names of the routes served outside the operations. */
const SERVICE_NAMES: Record<HostName, Readonly<Record<string, string>>> = {
  account: { '/healthz': 'healthz', '/': 'dashboard', '/assets/:file': 'dashboardAsset', ...DOCS_OPERATION_NAMES },
  instance: { '/healthz': 'healthz', ...DOCS_OPERATION_NAMES },
  internal: { '/healthz': 'healthz', '/metrics': 'metrics' },
};

/**
 * The `operation` label of the request metrics: the contract's name for each route of each host
 * (its route entry's `name`), plus the service routes. Anything else (an unknown path, a method a
 * path does not take) is `unknown`: the label never carries what a client sent, so the number of
 * series stays bounded. operation-names.spec.ts checks that every route has a name.
 */
export const OPERATION_NAMES: Record<HostName, Readonly<Record<string, string>>> = Object.fromEntries(
  (['account', 'instance', 'internal'] as const).map((host) => [
    host,
    {
      ...Object.fromEntries(
        OPERATION_ROUTES.filter((route) => route.host === host).map((route) => [route.path, route.name]),
      ),
      ...SERVICE_NAMES[host],
    },
  ]),
) as Record<HostName, Readonly<Record<string, string>>>;

/** A request that reached no operation: unknown path, or a method its path does not take (0013). */
export const UNKNOWN_OPERATION = 'unknown';
/** A CORS preflight (OPTIONS) on an instance-host operation. */
export const PREFLIGHT = 'preflight';

/** The label of a routed request: `pattern` is the route table's key, never the request's path. */
export function operationName(host: HostName, pattern: string): string {
  const names = OPERATION_NAMES[host];
  return Object.hasOwn(names, pattern) ? names[pattern] : UNKNOWN_OPERATION;
}
