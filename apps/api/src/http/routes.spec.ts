import { routeRequest } from './routes';

describe('routing', () => {
  it('sends each host only its own operations', () => {
    expect(routeRequest('account', 'GET', '/newInstance')).toEqual({ kind: 'operation', path: '/newInstance' });
    expect(routeRequest('instance', 'GET', '/newInstance')).toEqual({ kind: 'not-found' });
    expect(routeRequest('account', 'GET', '/getWebhookStatus')).toEqual({ kind: 'not-found' });
  });

  it('answers a method an operation does not take with the methods it does', () => {
    expect(routeRequest('account', 'POST', '/webhook')).toEqual({ kind: 'method-not-allowed', allow: 'GET' });
    expect(routeRequest('instance', 'DELETE', '/webhook')).toEqual({ kind: 'method-not-allowed', allow: 'GET, POST' });
  });

  it('never runs a state-changing GET operation for HEAD', () => {
    expect(routeRequest('account', 'HEAD', '/newInstance')).toEqual({ kind: 'method-not-allowed', allow: 'GET' });
    expect(routeRequest('account', 'HEAD', '/healthz')).toEqual({ kind: 'operation', path: '/healthz' });
  });
});
