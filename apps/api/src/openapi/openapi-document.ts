import { Codes } from '@gw/contract';
import type { Answer, HostName, Route } from '../http/operation';
import { ROUTES } from '../http/routes';
import { OPERATIONS } from '../operations';
import { ALL_CODES, codeTable, failureSchema } from './failure-schema';
import type { JsonSchema } from './json-schema';
import { formCodes, paramDocs, type ParamDoc } from './param-schema';
import { SERVICE_ROUTE_DOCS } from './service-routes';
import { webhooksMap } from './webhooks-map';

/** The hosts whose operations are public, and described (docs/api.md section 10). */
export type PublicHost = Exclude<HostName, 'internal'>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const sources = (host: PublicHost, method: string) =>
  host === 'account'
    ? 'Parameters come from the query string only (docs/api.md section 1).'
    : method === 'GET'
      ? 'Parameters come from the query string; the same operation also takes POST with a JSON or form body.'
      : 'Each parameter may come from the query string, an `application/json` body (an object of strings; a number parameter may be a JSON number) or an `application/x-www-form-urlencoded` body; when a name is in both, the body wins. `required` marks what the operation needs from one source or the other. A `charset` on the content type is accepted (the body is read in it; UTF-8 without one); an empty body is no body; over 64 KiB is `0009`.';

// No security scheme: the credentials (`apikey`, or `token`, which is the account's API key on
// newInstance and the instance's token elsewhere) are parameters like the others, from the query
// string or the body, so they are described with the parameters, and each operation says so.
const CREDENTIALS_AS_PARAMETERS: JsonSchema[] = [];

function paramDescription(param: ParamDoc): string {
  const rules = param.rules.map((rule) => `\`${rule.code}\` ${rule.message}`).join('; ');
  return `${param.required ? 'Required' : 'Optional'}. Refused with: ${rules}.`;
}

function parameterObjects(params: readonly ParamDoc[], requiredHere: boolean): JsonSchema[] {
  return params.map((param) => ({
    name: param.name,
    in: 'query',
    required: requiredHere && param.required,
    description: paramDescription(param),
    schema: param.text,
  }));
}

function bodySchema(params: readonly ParamDoc[], form: 'text' | 'json'): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      params.map((param) => [param.name, { ...param[form], description: paramDescription(param) }]),
    ),
    required: params.filter((param) => param.required).map((param) => param.name),
    description: 'Names the operation does not take are ignored; a name given twice is `0002`.',
  };
}

/** Path parameters (`:name` segments) of a route pattern. */
const pathParameters = (pattern: string): JsonSchema[] =>
  pattern
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => ({
      name: segment.slice(1),
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1 },
    }));

function corsHeaders(host: PublicHost): JsonSchema {
  return host === 'instance'
    ? {
        'Access-Control-Allow-Origin': {
          description: 'always `*`: the instance host may be called from any page',
          schema: { const: '*' },
        },
      }
    : {};
}

function operationObject(
  host: PublicHost,
  op: Route,
  answer: Answer | undefined,
  method: string,
  schemas: Record<string, JsonSchema>,
): JsonSchema {
  const name = op.path.slice(1);
  if (!answer) throw new Error(`${host} ${op.path}: its operation has no answer (the route file's \`answer\`)`);
  const params = paramDocs(op.dto);
  const form = formCodes(params).concat(Codes.UnreadableBody).sort();
  const codes = ALL_CODES.filter((code) =>
    [...form, ...answer.refusals, Codes.TooManyRequests, Codes.Unavailable].includes(code),
  );
  const success = answer.fields.json as { properties: JsonSchema; required: string[] };
  schemas[`${capitalized(name)}Answer`] = {
    ...success,
    properties: { success: { const: true }, ...success.properties },
    required: ['success', ...success.required],
  };
  schemas[`${capitalized(name)}Failure`] = failureSchema(
    codes,
    `The failure envelope of ${name}, with every code it can answer.`,
  );
  const withBody = host === 'instance' && method === 'POST';
  const description = [
    sources(host, method),
    `Checks run in three stages and stop at the first that fails (the form: ${form.map((c) => `\`${c}\``).join(', ')}; authentication; the rest), reporting every problem of that stage at once. A refusal is HTTP 200 with the failure envelope; it can carry these codes:`,
    codeTable(codes),
  ].join('\n\n');
  return {
    operationId: op.methods.length > 1 ? `${name}${capitalized(method.toLowerCase())}` : name,
    summary: answer.summary,
    description,
    tags: ['operations'],
    security: CREDENTIALS_AS_PARAMETERS,
    parameters: [...pathParameters(op.path), ...parameterObjects(params, !withBody)],
    ...(withBody
      ? {
          requestBody: {
            required: false,
            content: {
              'application/json': { schema: bodySchema(params, 'json') },
              'application/x-www-form-urlencoded': { schema: bodySchema(params, 'text') },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'Success, or a refusal (the failure envelope, also with HTTP 200)',
        headers: {
          'Retry-After': {
            description: 'with `0010`: seconds to wait before retrying',
            schema: { type: 'integer', minimum: 1 },
          },
          ...corsHeaders(host),
        },
        content: {
          'application/json': {
            schema: { oneOf: [ref(`${capitalized(name)}Answer`), ref(`${capitalized(name)}Failure`)] },
          },
        },
      },
      default: {
        description:
          'A request that cannot be read as HTTP (400, 408, 431 with `0009`) or an internal error (500 with `0011`)',
        content: { 'application/json': { schema: ref('Failure') } },
      },
    },
  };
}

function serviceOperationObject(host: PublicHost, pattern: string, method: string): JsonSchema {
  const doc = SERVICE_ROUTE_DOCS[pattern];
  if (!doc) throw new Error(`${host} ${pattern}: no description in openapi/service-routes.ts`);
  const id =
    pattern === '/'
      ? 'dashboard'
      : pattern.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
  const body = method === 'GET' ? doc.content : undefined;
  return {
    operationId: `${method.toLowerCase()}${capitalized(id)}`,
    summary: doc.summary,
    tags: ['service'],
    security: [],
    parameters: pathParameters(pattern),
    responses: {
      '200': {
        description: method === 'HEAD' ? 'The headers a GET would answer with' : doc.summary,
        ...(host === 'instance' ? { headers: corsHeaders(host) } : {}),
        ...(body ? { content: { [body.type]: { schema: body.schema } } } : {}),
      },
    },
  };
}

/** The CORS preflight the instance host answers on every route but `/healthz` (docs/api.md section 2). */
function preflightObject(pattern: string, methods: readonly string[]): JsonSchema {
  const id = pattern.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
  return {
    operationId: `preflight${capitalized(id)}`,
    summary: 'CORS preflight: what a page elsewhere may send here',
    tags: ['cors'],
    security: [],
    responses: {
      '204': {
        description: 'No body; the methods and request headers a cross-origin page may use',
        headers: {
          'Access-Control-Allow-Methods': {
            description: `the methods of this path: \`${methods.join(', ')}\``,
            schema: { const: methods.join(', ') },
          },
          'Access-Control-Allow-Headers': {
            description: 'the request headers allowed: `content-type`',
            schema: { const: 'content-type' },
          },
          'Access-Control-Max-Age': {
            description: 'seconds a browser may keep this answer',
            schema: { type: 'integer', minimum: 0 },
          },
          ...corsHeaders('instance'),
        },
      },
    },
  };
}

/** Whether the host answers an `OPTIONS` preflight on this route (http-listeners.ts): the instance
 * host does on every route but `/healthz`. */
export const preflighted = (host: PublicHost, pattern: string): boolean =>
  host === 'instance' && pattern !== '/healthz';

const INFO: Record<PublicHost, { title: string; summary: string }> = {
  account: {
    // The spec's placeholders ({base_url}, {api_url}) mean nothing to a reader of /docs: the
    // service's name, and the variable that sets the port, say where this is.
    title: 'gateway-hub account host',
    summary:
      "An account holder's operations: create, renew, list, delete instances, reset tokens and keys, register a webhook. Served on `ACCOUNT_PORT` (8080 by default), next to the dashboard at `/`.",
  },
  instance: {
    title: 'gateway-hub instance host',
    summary:
      "An instance's operations: its webhook, delivery log, signing secret, test deliveries, notifications and redelivery. Served on `API_PORT` (8081 by default).",
  },
};

function documentDescription(host: PublicHost): string {
  return [
    INFO[host].summary,
    'Success is HTTP 200 with `{"success": true, ...fields}`. Every refusal is HTTP 200 too, with the failure envelope `{"success": false, "msg": [codes], "details": [{code, field, message}]}` (docs/api.md section 2). Only routing uses other statuses: an unknown path is 404 and a method the path does not take is 405 with `Allow`, both with code `0013`.',
    'Credentials are parameters (`apikey`; `token`, the instance token, or the account API key on newInstance), read from the same sources as the others: no security scheme applies, and each operation says so with an empty `security`.',
    'Rate limits answer `0010` with `Retry-After`: per account or instance for requests that authenticated, and per source address for requests that failed the form or authentication stage. Successful requests, `/healthz`, the dashboard, this document and `/docs` never count against a source.',
    host === 'instance'
      ? "Cross-origin calls are allowed: every answer carries `Access-Control-Allow-Origin: *`, and an `OPTIONS` preflight on an operation answers 204 with `Access-Control-Allow-Methods` and `Access-Control-Allow-Headers`. Credentials are parameters, never cookies. The notifications this service POSTs to an instance's webhook URL are described under `webhooks`, one entry per kind of body."
      : "The instance host (`API_PORT`, 8081 by default; the dashboard reaches it at `PUBLIC_API_URL` when that is set) describes an instance's operations at its own `/openapi.json` and `/docs`.",
    `Error codes (docs/api.md section 3):\n\n${codeTable(ALL_CODES)}`,
  ].join('\n\n');
}

/** The OpenAPI 3.1 description of one public host: every route of its route table, each operation
 * with its parameters (read from the DTO rules that check them), success shape and failure codes. */
export function openApiDocument(host: PublicHost): JsonSchema {
  const schemas: Record<string, JsonSchema> = {
    Failure: failureSchema(ALL_CODES, 'The failure envelope (docs/api.md section 2).'),
  };
  const paths: Record<string, JsonSchema> = {};
  const webhooks = host === 'instance' ? webhooksMap() : undefined;
  Object.assign(schemas, webhooks?.schemas);
  for (const [pattern, methods] of Object.entries(ROUTES[host])) {
    const op = OPERATIONS.find((candidate) =>
      candidate.routes.some((route) => route.host === host && route.path === pattern),
    );
    const route = op?.routes.find((candidate) => candidate.host === host && candidate.path === pattern);
    paths[pattern.replace(/:([^/]+)/g, '{$1}')] = Object.fromEntries([
      ...methods.map((method) => [
        method.toLowerCase(),
        route
          ? operationObject(host, route, op?.answer, method, schemas)
          : serviceOperationObject(host, pattern, method),
      ]),
      ...(preflighted(host, pattern) ? [['options', preflightObject(pattern, methods)]] : []),
    ]);
  }
  return {
    openapi: '3.1.0',
    // The interface's version, not the package's.
    info: { title: INFO[host].title, version: '1', description: documentDescription(host) },
    // Relative to where this document is served (OpenAPI 3.1, 4.8.5.1): "Try it out" calls the host
    // the document came from, under the same path prefix when a proxy adds one.
    servers: [{ url: '.', description: 'the host (and path prefix) this document is served from' }],
    tags: [
      { name: 'operations', description: 'The operations of docs/api.md sections 4 and 8' },
      { name: 'service', description: 'Readiness, the API description and the pages served by the host' },
      ...(host === 'instance'
        ? [
            { name: 'cors', description: 'The CORS preflights of the instance host (docs/api.md section 2)' },
            { name: 'notifications', description: "What the service POSTs to an instance's webhook URL" },
          ]
        : []),
    ],
    paths,
    ...(webhooks ? { webhooks: webhooks.webhooks } : {}),
    components: { schemas },
  };
}
