import { createLogger, type LogLevel } from '../logger';

/** A logger whose output is captured line by line. */
export function capture(level: LogLevel = 'debug', base: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const logger = createLogger(level, base, (line) => lines.push(line));
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, records };
}
