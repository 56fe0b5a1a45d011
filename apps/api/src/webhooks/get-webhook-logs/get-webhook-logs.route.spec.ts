import { GetWebhookLogsQuery } from './get-webhook-logs.query';
import { getWebhookLogs } from './get-webhook-logs.route';

describe('the getWebhookLogs route', () => {
  const [logs] = getWebhookLogs.routes;

  it.each([
    ['absent', undefined, 20],
    ['a JSON null', null, 20],
    ['a query-string number', '7', 7],
    ['a JSON number', 100, 100],
  ])('reads limit %s as %p', (_name, limit, expected) => {
    const message = logs.build({ instanceid: 'i1', token: 't', limit } as object, {});
    expect(message).toEqual(new GetWebhookLogsQuery('i1', 't', expected as number));
  });
});
