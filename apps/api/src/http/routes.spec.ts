import { routeRequest } from './routes';

describe('routing', () => {
  it('sends each host only its own operations', () => {
    expect(routeRequest('account', 'GET', '/newInstance')).toEqual({
      kind: 'operation',
      path: '/newInstance',
      pattern: '/newInstance',
    });
    expect(routeRequest('instance', 'GET', '/newInstance')).toEqual({ kind: 'not-found' });
    expect(routeRequest('account', 'GET', '/getWebhookStatus')).toEqual({ kind: 'not-found' });
  });

  it('answers a method an operation does not take with the methods it does', () => {
    expect(routeRequest('account', 'POST', '/webhook')).toEqual({ kind: 'method-not-allowed', allow: 'GET' });
    expect(routeRequest('instance', 'DELETE', '/webhook')).toEqual({ kind: 'method-not-allowed', allow: 'GET, POST' });
  });

  it('never runs a state-changing GET operation for HEAD', () => {
    expect(routeRequest('account', 'HEAD', '/newInstance')).toEqual({ kind: 'method-not-allowed', allow: 'GET' });
    expect(routeRequest('account', 'HEAD', '/healthz')).toEqual({
      kind: 'operation',
      path: '/healthz',
      pattern: '/healthz',
    });
  });
});

describe('internal ingest routing', () => {
  it('matches an instance id segment and nothing longer or empty', () => {
    expect(routeRequest('internal', 'POST', '/instances/abc/messages')).toEqual({
      kind: 'operation',
      path: '/instances/abc/messages',
      pattern: '/instances/:instanceid/messages',
    });
    expect(routeRequest('internal', 'POST', '/instances//messages')).toEqual({ kind: 'not-found' });
    expect(routeRequest('internal', 'POST', '/instances/a/b/messages')).toEqual({ kind: 'not-found' });
    expect(routeRequest('internal', 'GET', '/instances/abc/acks')).toEqual({
      kind: 'method-not-allowed',
      allow: 'POST',
    });
  });
});
