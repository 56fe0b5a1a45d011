import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';
import { stdoutLineWriter, type LineWriter } from './line-writers';
import { redactEmails, redactFields, REDACTED, SECRET_PATHS } from './redact';

/** The lowest level a logger writes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A JSON logger: one line per call, `fields` merged in, secrets redacted. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether a line at `level` is written: for a caller that would otherwise build fields for
   * nothing (the API's request line, at every request). Optional, so that a logger made elsewhere
   * (handed to `@gw/process`, say) still fits: without it, take every level as written. */
  enabled?(level: LogLevel): boolean;
}

/**
 * One JSON object per line on stdout, written by pino: `{"level":"info","time":"<ISO>",...base
 * fields,...fields,"msg":"..."}`. Fields under secret-looking keys are redacted (redact.ts). A line
 * that cannot be written (stdout is a file on a full disk) is lost, never the process
 * (line-writers.ts).
 */
export function createLogger(
  level: LogLevel,
  base: Record<string, unknown> = {},
  write: LineWriter = stdoutLineWriter(),
): Logger {
  return new PinoBackedLogger(pino(pinoOptions(level), { write }), base);
}

/** The pino instance behind a logger made by createLogger, with its base fields bound: for what
 * must write through the same instance (Nest's own messages, through nestjs-pino). */
export function pinoLoggerOf(logger: Logger): PinoLogger {
  if (logger instanceof PinoBackedLogger) return logger.pino;
  throw new TypeError('not a logger made by createLogger');
}

/** Keys pino writes before the fields (level, time) or that name the message: a field of the same
 * name would be written beside them and win when the line is read back, so it is left out. */
function withoutRecordKeys(fields: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  for (const key of keys) delete fields[key];
  return fields;
}

function pinoOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    // No pid or hostname: the records carry the base fields the app gives, and nothing else.
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      // The fields of every record pass through here, those Nest writes through nestjs-pino too.
      // (pino applies formatters.bindings to the root's base only, not to a child's bindings: the
      // base fields are redacted where the children are made, in PinoBackedLogger.)
      log: (fields) => withoutRecordKeys(redactFields(fields) as Record<string, unknown>, ['level', 'time']),
    },
    // The formatters have already made an error { name, message, code, stack }; pino's own
    // serializer would add a type and every enumerable property of the error.
    serializers: { err: (value: unknown) => value },
    redact: { paths: [...SECRET_PATHS], censor: REDACTED },
    // The message and its interpolated strings (Nest's own messages among them) carry no e-mail
    // address either (docs/api.md 9); the fields are seen to by formatters.log.
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactEmails(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
  };
}

class PinoBackedLogger implements Logger {
  readonly pino: PinoLogger;

  constructor(
    private readonly root: PinoLogger,
    private readonly base: Record<string, unknown>,
  ) {
    this.pino = root.child(withoutRecordKeys(redactFields(base) as Record<string, unknown>, ['level', 'time', 'msg']));
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (fields === undefined) this.pino.debug(msg);
    else this.pino.debug(withoutMsg(fields), msg);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    if (fields === undefined) this.pino.info(msg);
    else this.pino.info(withoutMsg(fields), msg);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    if (fields === undefined) this.pino.warn(msg);
    else this.pino.warn(withoutMsg(fields), msg);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    if (fields === undefined) this.pino.error(msg);
    else this.pino.error(withoutMsg(fields), msg);
  }

  enabled(level: LogLevel): boolean {
    return this.pino.isLevelEnabled(level);
  }

  /** Its fields merged over this logger's base fields: one binding of each name, never two. */
  child(fields: Record<string, unknown>): Logger {
    return new PinoBackedLogger(this.root, { ...this.base, ...fields });
  }
}

/** The message is the one given to the method; a `msg` field would be written beside it (the
 * fields keep it when pino is called without a message, as nestjs-pino may). */
function withoutMsg(fields: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(fields, 'msg')) return fields;
  const { msg: _msg, ...rest } = fields;
  return rest;
}
