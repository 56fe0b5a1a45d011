import type { ServerResponse } from 'node:http';
import { Codes, failureEnvelope, type Violation } from '@gw/contract';
import type { RouteDecision } from './routing';
import { sendJson } from './send-json';

/** A failure answer before it is sent: its status, the envelope's violations and extra headers. */
export interface FailureAnswer {
  status: number;
  violations: Violation[];
  headers?: Record<string, string>;
}

/**
 * The answer to a request that reached no route (docs/api.md section 2): 404 for an unknown path,
 * 405 with `Allow` for a method the path does not take, both with code 0013. The path is not
 * echoed: a client may have put a secret in it by mistake.
 */
export function routingFailure(route: Exclude<RouteDecision, { kind: 'operation' }>, method: string): FailureAnswer {
  if (route.kind === 'not-found')
    return { status: 404, violations: [{ code: Codes.UnknownOperation, message: 'unknown operation' }] };
  return {
    status: 405,
    violations: [{ code: Codes.UnknownOperation, message: `this operation does not take ${method}` }],
    headers: { allow: route.allow },
  };
}

/** Sends a failure answer with the contract's envelope. */
export function sendFailure(res: ServerResponse, { status, violations, headers }: FailureAnswer): void {
  sendJson(res, status, failureEnvelope(violations), headers);
}

/** `/healthz` of a process that serves. (HEAD gets the same headers; Node leaves out the body.) */
export function sendHealthy(res: ServerResponse): void {
  sendJson(res, 200, { success: true, status: 'ok' });
}
