import { createLogger, pinoLoggerOf, type LogLevel } from './logger';
import { REDACTED } from './redact';

/** A logger whose output is captured line by line. */
function capture(level: LogLevel = 'debug', base: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const logger = createLogger(level, base, (line) => lines.push(line));
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, records };
}

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

  describe('redaction of secret-looking fields', () => {
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
