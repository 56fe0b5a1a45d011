import type { IncomingMessage } from 'node:http';
import { bearerAuthorizer } from './bearer-authorizer';

const request = (authorization?: string) => ({ headers: { authorization } }) as IncomingMessage;

describe('bearerAuthorizer', () => {
  const admits = bearerAuthorizer('ingest-token-0123456789abcdef');

  it('admits the token, whatever the scheme name’s case and the spaces around it', () => {
    expect(admits(request('Bearer ingest-token-0123456789abcdef'))).toBe(true);
    expect(admits(request('bearer   ingest-token-0123456789abcdef  '))).toBe(true);
  });

  it('refuses another token, a prefix or extension of it, another scheme, or none', () => {
    expect(admits(request('Bearer ingest-token-0123456789abcdeF'))).toBe(false);
    expect(admits(request('Bearer ingest-token-0123456789abcde'))).toBe(false);
    expect(admits(request('Bearer ingest-token-0123456789abcdef0'))).toBe(false);
    expect(admits(request('Basic ingest-token-0123456789abcdef'))).toBe(false);
    expect(admits(request('Bearer ingest-token-0123456789abcdef extra'))).toBe(false);
    expect(admits(request('Bearer '))).toBe(false);
    expect(admits(request(undefined))).toBe(false);
  });

  it('cannot be made without a token', () => {
    expect(() => bearerAuthorizer('')).toThrow(/INTERNAL_TOKEN/);
    expect(() => bearerAuthorizer('  ')).toThrow(/INTERNAL_TOKEN/);
  });
});
