// `npm run esdb:test-server -- [--port P] [--host H]`: serves the in-memory EventStoreDB test double on
// H:P (default 127.0.0.1, and a free port when P is 0 or not given) without TLS, prints
// {"msg":"ready","port":P} on stdout, and runs until SIGTERM/SIGINT.
import { parseArgs } from 'node:util';
import { startEsdbTestServer } from './index';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { port: { type: 'string' }, host: { type: 'string' } },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '0') || port > 65535)
    throw new Error('--port must be a TCP port number (0 or none: a free one)');
  if (values.host === '') throw new Error('--host must name an address to listen on');
  const server = await startEsdbTestServer({ port, host: values.host ?? '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ msg: 'ready', port: server.port })}\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ msg: 'esdb test server failed', error: String((error as Error)?.message ?? error) })}\n`,
  );
  process.exit(1);
});
