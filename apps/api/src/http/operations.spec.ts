import { GetWebhookLogsQuery } from '../webhooks/get-webhook-logs/get-webhook-logs.query';
import { OPERATIONS } from './operations';

describe('operation table', () => {
  const logs = OPERATIONS.find((op) => op.host === 'instance' && op.path === '/getWebhookLogs');

  it.each([
    ['absent', undefined, 20],
    ['a JSON null', null, 20],
    ['a query-string number', '7', 7],
    ['a JSON number', 100, 100],
  ])('reads getWebhookLogs limit %s as %p', (_name, limit, expected) => {
    const message = logs?.message({ instanceid: 'i1', token: 't', limit } as object, {});
    expect(message).toEqual(new GetWebhookLogsQuery('i1', 't', expected as number));
  });
});
