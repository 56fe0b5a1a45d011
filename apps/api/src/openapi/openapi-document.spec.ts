import SwaggerParser from '@apidevtools/swagger-parser';
import { ValidateBy } from 'class-validator';
import { parameterNames } from '../http/check-params';
import { ROUTES } from '../http/routes';
import { OPERATION_ROUTES } from '../operations';
import { RequiredText } from '../http/param-rules';
import { openApiDocument, preflighted, type PublicHost } from './openapi-document';
import { paramDocs } from './param-schema';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters: Array<{ name: string; in: string; required: boolean }>;
        requestBody?: any;
        responses: any;
      }
    >
  >;
  components: any;
};

const HOSTS: PublicHost[] = ['account', 'instance'];
const documentOf = (host: PublicHost) => openApiDocument(host) as unknown as Doc;
const routeKeys = (host: PublicHost) =>
  Object.entries(ROUTES[host]).flatMap(([pattern, methods]) =>
    [...methods, ...(preflighted(host, pattern) ? ['OPTIONS'] : [])].map(
      (method) => `${method} ${pattern.replace(/:([^/]+)/g, '{$1}')}`,
    ),
  );
const documentedKeys = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe.each(HOSTS)('the OpenAPI description of the %s host', (host) => {
  const doc = documentOf(host);

  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    // The parser dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('is titled with the service and host names and explains no spec placeholder ({base_url}, {api_url})', () => {
    const info = (openApiDocument(host) as { info: { title: string; description: string } }).info;
    expect(info.title).toBe(`gateway-hub ${host} host`);
    expect(`${info.title} ${info.description}`).not.toMatch(/\{(base|api)_url\}/);
    expect(info.description).toContain(
      host === 'account' ? '`ACCOUNT_PORT` (8080 by default)' : '`API_PORT` (8081 by default)',
    );
  });

  it('documents every route of the router, and no route the router does not have', () => {
    expect(documentedKeys(doc).sort()).toEqual(routeKeys(host).sort());
    // The instance host's CORS preflights are documented; the account host takes none.
    expect(documentedKeys(doc).some((key) => key.startsWith('OPTIONS '))).toBe(host === 'instance');
    expect(documentedKeys(doc)).not.toContain('OPTIONS /healthz');
  });

  it('sends "Try it out" to where the document was served from, path prefix included', () => {
    expect((doc as unknown as { servers: unknown }).servers).toEqual([expect.objectContaining({ url: '.' })]);
  });

  it("lists each operation's parameters exactly as its DTO declares them, in every source section 1 allows", () => {
    for (const op of OPERATION_ROUTES.filter((o) => o.host === host)) {
      const names = parameterNames(op.dto);
      for (const method of op.methods) {
        const documented = doc.paths[op.path][method.toLowerCase()];
        expect(documented.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(names);
        if (host === 'instance' && method === 'POST') {
          const content = documented.requestBody.content;
          expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
          for (const body of Object.values(content) as Array<{ schema: { properties: object } }>)
            expect(Object.keys(body.schema.properties)).toEqual(names);
        } else {
          expect(documented.requestBody).toBeUndefined();
        }
      }
    }
  });

  it('answers every operation with its success shape or its failure envelope', () => {
    for (const op of OPERATION_ROUTES.filter((o) => o.host === host)) {
      const documented = doc.paths[op.path][op.methods[0].toLowerCase()];
      const [success, failure] = documented.responses['200'].content['application/json'].schema.oneOf.map(
        (s: { $ref: string }) => s.$ref.split('/').pop(),
      );
      expect(doc.components.schemas[success].properties.success).toEqual({ const: true });
      expect(doc.components.schemas[failure].properties.success).toEqual({ const: false });
    }
  });
});

describe('parameters read from the rules that check them', () => {
  const failureCodes = (host: PublicHost, path: string) => {
    const doc = documentOf(host);
    const [, failure] =
      doc.paths[path][host === 'instance' ? 'post' : 'get'].responses['200'].content['application/json'].schema.oneOf;
    return doc.components.schemas[failure.$ref.split('/').pop()].properties.msg.items.enum as string[];
  };

  it('carries each rule with the code it refuses with, and the limits it checks', () => {
    const webhook = OPERATION_ROUTES.find((op) => op.host === 'instance' && op.path === '/webhook');
    const [instanceid, , webhookUrl, events] = paramDocs(webhook!.dto);
    expect(instanceid).toMatchObject({
      name: 'instanceid',
      required: true,
      text: { type: 'string', maxLength: 128, minLength: 1 },
    });
    expect(instanceid.rules.map((r) => r.code)).toEqual(['0001', '0002', '0002', '0002', '0002']);
    // Required, but empty is allowed: it switches delivery off.
    expect(webhookUrl).toMatchObject({ required: true, text: { type: 'string', maxLength: 2048 } });
    expect(webhookUrl.text).not.toHaveProperty('minLength');
    expect(webhookUrl.rules.map((r) => r.code)).toContain('0008');
    expect(events.required).toBe(false);
    const pattern = new RegExp(events.text['pattern'] as string);
    expect(['messages', ' acks , instance', 'messages,,acks'].every((v) => pattern.test(v))).toBe(true);
    expect(['', ' , ', 'message', 'acks;instance'].some((v) => pattern.test(v))).toBe(false);
  });

  it('takes a number as digits in the query and as a JSON number or digits in a JSON body', () => {
    const logs = OPERATION_ROUTES.find((op) => op.path === '/getWebhookLogs');
    const limit = paramDocs(logs!.dto).find((p) => p.name === 'limit');
    expect(limit?.text).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(limit?.json).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: 100 },
        { type: 'string', pattern: '^\\d{1,4}$' },
        { type: 'null' },
      ],
    });
  });

  it('lists the codes of every stage each operation can answer', () => {
    expect(failureCodes('account', '/newInstance')).toEqual([
      '0001',
      '0002',
      '0003',
      '0004',
      '0009',
      '0010',
      '0011',
      '0012',
    ]);
    expect(failureCodes('instance', '/testWebhook')).toEqual([
      '0001',
      '0002',
      '0006',
      '0007',
      '0008',
      '0009',
      '0010',
      '0011',
      '0012',
      '0015',
    ]);
    expect(failureCodes('instance', '/getWebhookStatus')).toEqual(['0001', '0002', '0006', '0009', '0010', '0011']);
  });

  it('refuses to describe a rule it does not know, rather than leave it out', () => {
    class Unknown {
      @RequiredText(8)
      @ValidateBy({ name: 'isSomethingNew', validator: { validate: () => true } })
      name!: string;
    }
    expect(() => paramDocs(Unknown)).toThrow('Unknown.name: no description for the rule "isSomethingNew"');
  });
});
