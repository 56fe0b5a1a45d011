import { createLogger, type Logger } from '@gw/logging';

/**
 * Runs an app's start-up; a failure is logged (as JSON, like everything else) and exits 1. The
 * reason is also written in words to stderr, for the person who ran `npm start` and reads no JSON
 * (a port in use names its variable there).
 */
export function startOrExit(app: string, start: () => Promise<void>): void {
  start().catch((error: unknown) => {
    createLogger('error', { app }).error('failed to start', { error });
    process.stderr.write(`${app} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

/** On SIGTERM or SIGINT, runs `stop` once (it drains work in flight) and exits 0. */
export function stopGracefullyOnSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    await stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
