import { createLogger, pinoLoggerOf, type LogLevel } from './logger';
import { REDACTED } from './redact';
import { capture } from './test/capture';

describe('createLogger', () => {
  it('writes one newline-terminated JSON line per record with time, level, msg and fields', () => {
    const { logger, lines, records } = capture('debug');
    const before = Date.now();
    logger.info('instance created', { instanceId: 'i1', count: 3, ok: true });
    const after = Date.now();

    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(lines[0].slice(0, -1)).not.toContain('\n');
    const [record] = records();
    expect(record).toEqual({
      time: expect.any(String),
      level: 'info',
      msg: 'instance created',
      instanceId: 'i1',
      count: 3,
      ok: true,
    });
    expect(new Date(record.time as string).toISOString()).toBe(record.time);
    const t = Date.parse(record.time as string);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });

  it('writes no e-mail address: not in the message, an interpolated string, a field or an error (docs/api.md 9)', () => {
    const { logger, lines } = capture('debug');
    logger.info('refused ann@example.com', {
      who: 'bob@example.com',
      error: new Error('no account for cy@example.com'),
    });
    pinoLoggerOf(logger).info('%s signed in', 'dee@example.com');
    expect(lines.join('')).not.toMatch(/ann@|bob@|cy@|dee@/);
    expect(lines.join('')).toContain(REDACTED);
  });

  it('writes a record without fields', () => {
    const { logger, records } = capture('debug');
    logger.warn('just a message');
    expect(records()).toEqual([{ time: expect.any(String), level: 'warn', msg: 'just a message' }]);
  });

  it('labels each method with its own level', () => {
    const { logger, records } = capture('debug');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(records().map((r) => [r.level, r.msg])).toEqual([
      ['debug', 'd'],
      ['info', 'i'],
      ['warn', 'w'],
      ['error', 'e'],
    ]);
  });

  it.each<[LogLevel, string[]]>([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
  ])('at level %s writes only records at or above it', (level, expected) => {
    const { logger, records } = capture(level);
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(records().map((r) => r.level)).toEqual(expected);
  });

  it('writes nothing at all for a filtered record', () => {
    const write = jest.fn();
    const logger = createLogger('error', {}, write);
    logger.info('ignored', { a: 1 });
    expect(write).not.toHaveBeenCalled();
  });

  it('tells which levels it writes, as its children do', () => {
    const logger = createLogger('warn', {}, jest.fn());
    const levels = ['debug', 'info', 'warn', 'error'] as const;
    expect(levels.map((level) => logger.enabled?.(level))).toEqual([false, false, true, true]);
    expect(levels.map((level) => logger.child({ c: 1 }).enabled?.(level))).toEqual([false, false, true, true]);
    expect(levels.map((level) => createLogger('debug', {}, jest.fn()).enabled?.(level))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('redacts secret-looking base fields given to createLogger', () => {
    const { logger, lines, records } = capture('info', { apiKey: 'BASE-SECRET-1', app: 'api' });
    logger.info('x');
    expect(lines[0]).not.toContain('BASE-SECRET-1');
    expect(records()[0]).toMatchObject({ apiKey: REDACTED, app: 'api' });
  });

  it('includes base fields in every record', () => {
    const { logger, records } = capture('info', { app: 'api' });
    logger.info('one');
    logger.error('two', { extra: 1 });
    expect(records()).toEqual([
      expect.objectContaining({ app: 'api', msg: 'one' }),
      expect.objectContaining({ app: 'api', msg: 'two', extra: 1 }),
    ]);
  });

  describe('child', () => {
    it('merges its fields over the parent base fields', () => {
      const { logger, records } = capture('info', { app: 'api', requestId: 'parent' });
      logger.child({ requestId: 'r-42', route: '/x' }).info('handled', { status: 200 });
      expect(records()).toEqual([
        {
          time: expect.any(String),
          level: 'info',
          app: 'api',
          requestId: 'r-42',
          route: '/x',
          msg: 'handled',
          status: 200,
        },
      ]);
    });

    it('leaves the parent logger unchanged', () => {
      const { logger, records } = capture('info', { app: 'api' });
      logger.child({ requestId: 'r-1' });
      logger.info('parent');
      expect(records()[0]).not.toHaveProperty('requestId');
    });

    it('keeps the parent level filter and writer', () => {
      const { logger, records } = capture('warn');
      const child = logger.child({ c: 1 }).child({ d: 2 });
      child.info('filtered');
      child.warn('kept');
      expect(records()).toEqual([expect.objectContaining({ level: 'warn', msg: 'kept', c: 1, d: 2 })]);
    });

    it('redacts secret-looking base fields given to child', () => {
      const { logger, lines, records } = capture('info');
      logger.child({ token: 'CHILD-SECRET-1', requestId: 'r' }).info('x');
      expect(lines[0]).not.toContain('CHILD-SECRET-1');
      expect(records()[0]).toMatchObject({ token: REDACTED, requestId: 'r' });
    });
  });

  describe('value serialisation', () => {
    it('serialises an Error with its name and message', () => {
      const { logger, records } = capture('debug');
      logger.error('failed', { err: new TypeError('bad input') });
      const err = records()[0].err as Record<string, unknown>;
      expect(err).toMatchObject({ name: 'TypeError', message: 'bad input' });
      expect(typeof err.stack).toBe('string');
    });

    it('includes the code of an Error that has one', () => {
      const { logger, records } = capture('debug');
      const error = Object.assign(new Error('nope'), { code: 'ECONNREFUSED' });
      logger.error('failed', { err: error });
      expect(records()[0].err).toMatchObject({ name: 'Error', message: 'nope', code: 'ECONNREFUSED' });
    });

    it('omits code for an Error without one', () => {
      const { logger, records } = capture('debug');
      logger.error('failed', { err: new Error('plain') });
      expect(records()[0].err).not.toHaveProperty('code');
    });

    it('serialises an Error nested inside another field', () => {
      const { logger, records } = capture('debug');
      logger.error('failed', { context: { cause: new RangeError('too far') } });
      expect((records()[0].context as Record<string, unknown>).cause).toMatchObject({
        name: 'RangeError',
        message: 'too far',
      });
    });

    it('writes bigint values as strings instead of throwing', () => {
      const { logger, records } = capture('debug');
      expect(() => logger.info('position', { position: 12345678901234567890n, nested: { p: 7n } })).not.toThrow();
      expect(records()[0]).toMatchObject({ position: '12345678901234567890', nested: { p: '7' } });
    });
  });
});
