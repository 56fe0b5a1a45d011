// Child process for crash tests: appends events to an embedded store one at a time and prints each
// event id once its append has returned (been acknowledged). The parent kills it with SIGKILL.
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../sqlite/sqlite-event-store';

async function main(): Promise<void> {
  const [file, streamPrefix] = process.argv.slice(2);
  const store = new SqliteEventStore({ file });
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
