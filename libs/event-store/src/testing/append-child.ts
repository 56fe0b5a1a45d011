// Child process for crash tests: appends events from `concurrency` loops at once (default one) and
// prints each event id once its append has returned (been acknowledged). The parent kills it with
// SIGKILL. The store is an embedded store file or an esdb:// connection string.
import { randomUUID } from 'node:crypto';
import { openEventStore } from '../open';

async function main(): Promise<void> {
  const [where, streamPrefix, concurrency = '1'] = process.argv.slice(2);
  const store = openEventStore(
    where.startsWith('esdb') ? { kind: 'esdb', connectionString: where } : { kind: 'embedded', file: where },
  );
  const loop = async (lane: number) => {
    for (let i = 0; ; i++) {
      const id = randomUUID();
      await store.append(`${streamPrefix}-${lane}-${i % 10}`, [{ id, type: 'Acked', data: { i } }], 'any');
      process.stdout.write(`${id}\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, (_, lane) => loop(lane)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
