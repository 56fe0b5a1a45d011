import { REDACTED } from './redact';
import { capture } from './test/capture';

describe('createLogger: redaction of secret-looking fields', () => {
  it.each([
    ['token'],
    ['accessToken'],
    ['apikey'],
    ['apiKey'],
    ['API_KEY'],
    ['secret'],
    ['signingSecret'],
    ['authorization'],
    ['Authorization'],
    ['password'],
    ['signature'],
  ])('replaces the value of %s and never writes it', (key) => {
    const { logger, lines, records } = capture('debug');
    logger.info('m', { [key]: 'S3CR3T-VALUE', visible: 'shown' });
    expect(lines[0]).not.toContain('S3CR3T-VALUE');
    expect(records()[0][key]).toBe(REDACTED);
    expect(records()[0].visible).toBe('shown');
  });

  it('redacts secrets nested in objects and arrays', () => {
    const { logger, lines, records } = capture('debug');
    logger.info('m', {
      request: { headers: { authorization: 'Bearer NESTED-1', accept: 'json' } },
      hooks: [{ url: 'https://h.example', signingSecret: 'NESTED-2' }],
    });
    expect(lines[0]).not.toContain('NESTED-1');
    expect(lines[0]).not.toContain('NESTED-2');
    expect(records()[0]).toMatchObject({
      request: { headers: { authorization: REDACTED, accept: 'json' } },
      hooks: [{ url: 'https://h.example', signingSecret: REDACTED }],
    });
  });

  it('redacts a whole object held under a secret key', () => {
    const { logger, lines, records } = capture('debug');
    logger.info('m', { secret: { inner: 'OBJ-SECRET' } });
    expect(lines[0]).not.toContain('OBJ-SECRET');
    expect(records()[0].secret).toBe(REDACTED);
  });

  it('redacts a secret nested six objects deep', () => {
    const { logger, lines } = capture('debug');
    logger.info('m', { a: { b: { c: { d: { e: { f: { token: 'SIX-DEEP-SECRET' } } } } } } });
    expect(lines[0]).not.toContain('SIX-DEEP-SECRET');
  });

  it('redacts a secret nested seven objects deep (beyond the recursion limit)', () => {
    const { logger, lines } = capture('debug');
    logger.info('m', { a: { b: { c: { d: { e: { f: { g: { token: 'DEEP-SECRET' } } } } } } } });
    expect(lines[0]).not.toContain('DEEP-SECRET');
  });

  it('does not alter the caller fields object', () => {
    const { logger } = capture('debug');
    const fields = { token: 'T', nested: { apiKey: 'K' } };
    logger.info('m', fields);
    expect(fields).toEqual({ token: 'T', nested: { apiKey: 'K' } });
  });
});
