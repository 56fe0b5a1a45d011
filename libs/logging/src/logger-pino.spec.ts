import { pinoLoggerOf } from './logger';
import { REDACTED } from './redact';
import { capture } from './test/capture';

describe('the pino instance behind createLogger', () => {
  it('writes level as a word and time as ISO, and nothing else of its own (no pid, no hostname)', () => {
    const { logger, records } = capture('debug', { app: 'api' });
    logger.info('x');
    expect(Object.keys(records()[0]).sort()).toEqual(['app', 'level', 'msg', 'time']);
  });

  it("keeps the record's own level, time and msg when fields or base fields carry the same names", () => {
    const { logger, lines, records } = capture('debug', { level: 'base', time: 'base', msg: 'base' });
    logger.child({ msg: 'child', time: 'child' }).warn('real', { level: 'field', time: 'field', msg: 'field' });
    expect(records()[0]).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'warn', msg: 'real' });
    for (const key of ['level', 'time', 'msg']) expect(lines[0].split(`"${key}":`)).toHaveLength(2);
  });

  it('writes each base field once when a child overrides it', () => {
    const { logger, lines } = capture('info', { requestId: 'parent' });
    logger.child({ requestId: 'r-42' }).child({ requestId: 'r-43' }).info('x');
    expect(lines[0].match(/"requestId"/g)).toHaveLength(1);
    expect(JSON.parse(lines[0]).requestId).toBe('r-43');
  });

  it('writes a Date field as its ISO string', () => {
    const { logger, records } = capture('info');
    logger.info('x', { at: new Date('2026-01-02T03:04:05.000Z') });
    expect(records()[0].at).toBe('2026-01-02T03:04:05.000Z');
  });

  it('redacts what reaches pino directly, as nestjs-pino writes: fields, bindings and errors', () => {
    const { logger, lines, records } = capture('debug', { app: 'api' });
    const direct = pinoLoggerOf(logger);
    direct
      .child({ signingSecret: 'CHILD-DIRECT' })
      .info({ context: 'Nest', headers: { Authorization: 'Bearer DIRECT-1' } }, 'nest says');
    direct.error({
      context: 'ExceptionHandler',
      err: Object.assign(new Error('boom'), { code: 'E1', token: 'ON-THE-ERROR' }),
    });
    for (const secret of ['CHILD-DIRECT', 'DIRECT-1', 'ON-THE-ERROR']) expect(lines.join('')).not.toContain(secret);
    expect(records()).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        app: 'api',
        signingSecret: REDACTED,
        context: 'Nest',
        headers: { Authorization: REDACTED },
        msg: 'nest says',
      },
      {
        time: expect.any(String),
        level: 'error',
        app: 'api',
        context: 'ExceptionHandler',
        err: { name: 'Error', message: 'boom', code: 'E1', stack: expect.any(String) },
        msg: 'boom',
      },
    ]);
  });

  it('redacts the secret fields known by name in an object interpolated into the message', () => {
    const { logger, lines } = capture('debug');
    pinoLoggerOf(logger).info('request %j', {
      token: 'INTERPOLATED-1',
      headers: { authorization: 'INTERPOLATED-2', cookie: 'INTERPOLATED-3' },
      path: '/x',
    });
    for (const secret of ['INTERPOLATED-1', 'INTERPOLATED-2', 'INTERPOLATED-3']) expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain('/x');
  });

  it('redacts request cookies, which the key pattern does not match', () => {
    const { logger, lines } = capture('debug');
    logger.info('m', {
      req: { headers: { cookie: 'session=COOKIE-1' } },
      res: { headers: { 'set-cookie': 'session=COOKIE-2' } },
    });
    expect(lines[0]).not.toContain('COOKIE-1');
    expect(lines[0]).not.toContain('COOKIE-2');
  });

  it('is only found behind a logger createLogger made', () => {
    const fake = { debug() {}, info() {}, warn() {}, error() {}, child: () => fake };
    expect(() => pinoLoggerOf(fake)).toThrow(TypeError);
  });
});
