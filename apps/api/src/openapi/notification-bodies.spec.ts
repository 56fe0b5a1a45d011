import { schemaProblems } from '@gw/testing';
import { NOTIFICATION_BODIES } from './notification-bodies';
import { openApiDocument } from './openapi-document';
import { bodySchemaName } from './webhooks-map';

type PathItem = {
  post: {
    security: unknown[];
    parameters: Array<{ name: string; in: string }>;
    requestBody: {
      content: Record<string, { schema: { $ref: string }; examples: Record<string, { value: unknown }> }>;
    };
    responses: Record<string, unknown>;
  };
};
const instanceDocument = openApiDocument('instance') as {
  webhooks: Record<string, PathItem>;
  components: { schemas: Record<string, unknown> };
};

describe('the notification bodies the instance host describes', () => {
  it('describes messages, acks, instance notices, state notices and the test body, each with at least one example', () => {
    expect(NOTIFICATION_BODIES.map((body) => body.name)).toEqual(['messages', 'ack', 'instance', 'state', 'test']);
    for (const body of NOTIFICATION_BODIES) expect(Object.keys(body.examples).length).toBeGreaterThan(0);
  });

  it.each(NOTIFICATION_BODIES.map((body) => [body.name, body] as const))(
    'gives %s an example that its schema accepts, with no field the schema does not name',
    (_name, body) => {
      for (const [example, value] of Object.entries(body.examples))
        expect({ example, problems: schemaProblems(body.schema.json, value) }).toEqual({ example, problems: [] });
    },
  );

  it('has schemas that refuse a body of another kind, a missing field and a field they do not name', () => {
    const [messages, ack, , , test] = NOTIFICATION_BODIES;
    const [message] = Object.values(messages.examples) as Array<Record<string, unknown>>;
    expect(schemaProblems(ack.schema.json, message)).not.toEqual([]);
    expect(schemaProblems(messages.schema.json, { ...message, sequence: undefined })).not.toEqual([]);
    expect(schemaProblems(messages.schema.json, { ...message, extra: 1 })).not.toEqual([]);
    expect(schemaProblems(test.schema.json, { ...message, test: true, at: '2026-03-01T12:00:00.000Z' })).not.toEqual(
      [],
    );
  });

  it('lists each under the OpenAPI 3.1 webhooks map with its schema, examples and Standard Webhooks headers', () => {
    const { webhooks, components } = instanceDocument;
    expect(Object.keys(webhooks)).toEqual(NOTIFICATION_BODIES.map((body) => body.name));
    for (const body of NOTIFICATION_BODIES) {
      const { post } = webhooks[body.name];
      const json = post.requestBody.content['application/json'];
      expect(json.schema.$ref).toBe(`#/components/schemas/${bodySchemaName(body)}`);
      expect(components.schemas[bodySchemaName(body)]).toEqual(body.schema.json);
      expect(Object.fromEntries(Object.entries(json.examples).map(([name, { value }]) => [name, value]))).toEqual(
        body.examples,
      );
      expect(post.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
        'header webhook-id',
        'header webhook-timestamp',
        'header webhook-signature',
        'header user-agent',
      ]);
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
  });

  it('has no webhooks map in the account host document: the account host sends nothing', () => {
    expect(openApiDocument('account')).not.toHaveProperty('webhooks');
  });
});
