import { METHODS } from 'node:http';
import { ERROR_TABLE } from '@gw/contract';
import type { Answer } from '@gw/testing';

export type Host = 'account' | 'instance' | 'internal';

const KNOWN_CODES = new Set(Object.keys(ERROR_TABLE));
const JSON_TYPE = 'application/json; charset=utf-8';

/** The pages and files of docs/api.md section 10, which are files, not envelopes: the dashboard (`/`
 * and `/assets/…`, account host) and the API description (`/openapi.json`, `/docs`, `/docs/…`, both
 * public hosts). A file that is not there answers an envelope (0013) like any other path. */
const FILE_ROUTES: Record<Exclude<Host, 'internal'>, RegExp> = {
  account: /^\/(?:|assets\/[^/]+|openapi\.json|docs|docs\/[^/]+)$/,
  instance: /^\/(?:openapi\.json|docs|docs\/[^/]+)$/,
};
const FILE_TYPES =
  /^(?:text\/html|text\/css|text\/javascript|application\/javascript|application\/json|image\/svg\+xml|image\/png)\b/;

/** HTTP statuses a failure may carry on each host (docs/api.md sections 2 and 6), by code. */
function failureStatusAllowed(host: Host, codes: string[], status: number): boolean {
  if (codes.length === 1 && codes[0] === '0013') return status === 404 || status === 405;
  // Refused by Node's HTTP parser before any handler runs: headers (the request line included) over
  // 16 KiB, as apps/api/test/hostile-input.e2e.spec.ts documents.
  if (codes.length === 1 && codes[0] === '0009' && status === 431) return true;
  if (host !== 'internal') return status === 200;
  // The ingest host: 400, 401, 404, 413 and 503 by section 6; a rate limit (0010) may be a 429.
  if (codes.includes('0010')) return status === 429 || status === 503;
  return [400, 401, 404, 413, 503].includes(status);
}

/**
 * What is wrong with an answer as a contract envelope (docs/api.md section 2), or undefined when it
 * is one: JSON of the right content type, `success` a boolean, a failure's `msg` the distinct known
 * codes it reports with `details`, the status the host uses for them, never a 5xx or a stack trace.
 * `head` is for HEAD requests, whose answers carry no body.
 */
export function envelopeProblem(
  host: Host,
  answer: Answer,
  head = false,
  method = 'GET',
  path = '',
): string | undefined {
  const { status, contentType, text, json } = answer;
  if (status >= 500 && status !== 503) return `HTTP ${status}`;
  // Answers that are not envelopes by design: a CORS preflight on the instance host (204,
  // no body, docs/api.md section 2), the ingest host's Prometheus metrics behind its bearer token,
  // and the pages and files of section 10.
  if (host === 'instance' && method === 'OPTIONS' && status === 204) {
    return text === '' && answer.headers.get('access-control-allow-methods')
      ? undefined
      : 'a preflight 204 without its CORS headers or with a body';
  }
  if (host === 'internal' && path === '/metrics' && status === 200) {
    return contentType.startsWith('text/plain; version=0.0.4') ? undefined : `metrics as ${contentType}`;
  }
  if (host !== 'internal' && (status === 200 || status === 304) && FILE_ROUTES[host].test(path)) {
    if (!FILE_TYPES.test(contentType)) return `a file of section 10 as ${contentType}`;
    return /\bat .+\(.+:\d+:\d+\)/.test(text) && !path.startsWith('/docs/') ? 'a stack trace in a file' : undefined;
  }
  if (contentType !== JSON_TYPE) return `content-type "${contentType}"`;
  if (head) return [200, 404, 405].includes(status) ? undefined : `HEAD answered ${status}`;
  if (/\bat .+\(.+:\d+:\d+\)/.test(text) || /<html|<!doctype/i.test(text)) return 'a stack trace or HTML in the body';
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'the body is not a JSON object';
  if (typeof json.success !== 'boolean') return '`success` is not a boolean';
  if (json.success) {
    const expected = host === 'internal' ? [200, 202] : [200];
    return expected.includes(status) ? undefined : `success with HTTP ${status}`;
  }
  const msg: unknown = json.msg;
  if (!Array.isArray(msg) || msg.length === 0) return '`msg` is not a non-empty array';
  if (!msg.every((code) => typeof code === 'string' && KNOWN_CODES.has(code)))
    return `unknown code in msg ${JSON.stringify(msg)}`;
  if (new Set(msg).size !== msg.length) return `msg repeats a code: ${JSON.stringify(msg)}`;
  if (!Array.isArray(json.details)) return '`details` is not an array';
  if (status === 503 && !(msg as string[]).some((c) => c === '0011' || c === '0012' || c === '0010'))
    return `HTTP 503 with ${msg}`;
  if (!failureStatusAllowed(host, msg as string[], status))
    return `HTTP ${status} for ${JSON.stringify(msg)} on the ${host} host`;
  if (msg.includes('0010') && !/^\d+$/.test(answer.headers.get('retry-after') ?? ''))
    return '0010 without a Retry-After header in seconds';
  // A method Node's HTTP parser does not know is refused before routing, without an Allow header
  // (reported apart; see tools/reliability/README.md).
  if (status === 405 && !answer.headers.get('allow') && METHODS.includes(method)) return '405 without Allow';
  return undefined;
}
