import { stdoutLineWriter, type LineWriter } from './line-writers';
import { redactFields } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** One JSON object per line on stdout; fields under secret-looking keys are redacted. A line that
 * cannot be written (stdout is a file on a full disk) is lost, never the process (line-writers.ts). */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}, write: LineWriter = stdoutLineWriter()): Logger {
  const safeBase = redactFields(base) as Record<string, unknown>;
  const emit = (at: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    // The record's own keys come last so that no field can overwrite them.
    const record = { ...safeBase, ...(fields ? (redactFields(fields) as object) : {}), time: new Date().toISOString(), level: at, msg };
    write(`${JSON.stringify(record, errorReplacer)}\n`);
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}

/** Errors are logged with name, message, code and stack (logs are for operators; responses never
 * carry a stack). */
function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined ? { code } : {}), stack: value.stack };
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}
