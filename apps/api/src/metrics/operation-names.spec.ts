import { ROUTES, type HostName } from '../http/routes';
import { OPERATION_NAMES, operationName, UNKNOWN_OPERATION } from './operation-names';

describe('operation names of the request metrics', () => {
  it('names every route of every host, and only those', () => {
    for (const host of Object.keys(ROUTES) as HostName[]) {
      expect(Object.keys(OPERATION_NAMES[host]).sort()).toEqual(Object.keys(ROUTES[host]).sort());
    }
  });

  it('never turns what a client sent into a label', () => {
    expect(operationName('internal', '/instances/abc/messages')).toBe(UNKNOWN_OPERATION);
    expect(operationName('account', '/getWebhookStatus')).toBe(UNKNOWN_OPERATION);
    expect(operationName('instance', 'constructor')).toBe(UNKNOWN_OPERATION);
    expect(operationName('internal', '/instances/:instanceid/messages')).toBe('recordMessage');
  });
});
