import type { HostName } from '../http/operations';
import { DOCS_OPERATION_NAMES } from '../openapi/docs-routes';

/**
 * The `operation` label of the request metrics: the contract's name for each route of each host
 * (the command or query it runs), plus the service routes. Anything else (an unknown path, a
 * method a path does not take) is `unknown`: the label never carries what a client sent, so the
 * number of series stays bounded. operation-names.spec.ts checks that every route has a name.
 */
export const OPERATION_NAMES: Record<HostName, Readonly<Record<string, string>>> = {
  account: {
    '/newInstance': 'createInstance',
    '/renewInstance': 'renewInstance',
    '/listInstances': 'listInstances',
    '/deleteInstance': 'deleteInstance',
    '/resetInstanceToken': 'resetInstanceToken',
    '/resetApiKey': 'resetApiKey',
    '/webhook': 'changeWebhook',
    '/healthz': 'healthz',
    '/': 'dashboard',
    '/assets/:file': 'dashboardAsset',
    ...DOCS_OPERATION_NAMES,
  },
  instance: {
    '/webhook': 'changeWebhook',
    '/getWebhookStatus': 'getWebhookStatus',
    '/getWebhookLogs': 'getWebhookLogs',
    '/rotateSigningSecret': 'rotateSigningSecret',
    '/testWebhook': 'testWebhook',
    '/getNotifications': 'getNotifications',
    '/redeliver': 'redeliver',
    '/healthz': 'healthz',
    ...DOCS_OPERATION_NAMES,
  },
  internal: {
    '/instances/:instanceid/messages': 'recordMessage',
    '/instances/:instanceid/acks': 'recordAck',
    '/healthz': 'healthz',
    '/metrics': 'metrics',
  },
};

/** A request that reached no operation: unknown path, or a method its path does not take (0013). */
export const UNKNOWN_OPERATION = 'unknown';
/** A CORS preflight (OPTIONS) on an instance-host operation. */
export const PREFLIGHT = 'preflight';

/** The label of a routed request: `pattern` is the route table's key, never the request's path. */
export function operationName(host: HostName, pattern: string): string {
  const names = OPERATION_NAMES[host];
  return Object.hasOwn(names, pattern) ? names[pattern] : UNKNOWN_OPERATION;
}
