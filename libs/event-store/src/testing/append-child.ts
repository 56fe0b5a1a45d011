// Child process for crash tests: appends events one at a time and prints each event id once its
// append has returned (been acknowledged). The parent kills it with SIGKILL. The store is an
// embedded store file or an esdb:// connection string.
import { randomUUID } from 'node:crypto';
import { openEventStore } from '../open-event-store';

async function main(): Promise<void> {
  const [where, streamPrefix] = process.argv.slice(2);
  const store = openEventStore(where.startsWith('esdb') ? { kind: 'esdb', connectionString: where } : { kind: 'embedded', file: where });
  for (let i = 0; ; i++) {
    const id = randomUUID();
    await store.append(`${streamPrefix}-${i % 10}`, [{ id, type: 'Acked', data: { i } }], 'any');
    process.stdout.write(`${id}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
