// Scenario e in its own process:
//   --mode projections: rebuilds every read model from the log as the API does on start
//     (SqliteReadModels + ProjectionRunner on a fresh read-model file, events read through the
//     versioned store as the API reads them), until caught up with the head;
//   --mode read: the baseline, a plain sequential read of the same log in pages (readAll).
import { withEventSchemas } from '@gw/application';
import type { EventStore } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { createLogger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES, ProjectionRunner, SqliteReadModels } from '@gw/projections';
import { childArgs, emit, required } from '../support/child';

const args = childArgs();
const PAGE = 1000;

async function rebuild(store: EventStore, modelsFile: string): Promise<number> {
  const models = new SqliteReadModels(modelsFile);
  const runner = new ProjectionRunner(
    store,
    models,
    createLogger('warn', { app: 'bench' }, (line) => process.stderr.write(line)),
    { streamNamePrefixes: PROJECTED_STREAM_PREFIXES },
  );
  runner.start();
  await runner.ready;
  await runner.stop();
  const rows = models.allInstances().length;
  await models.close();
  return rows;
}

async function readEverything(store: SqliteEventStore): Promise<number> {
  let after = 0n;
  let count = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    if (page.length === 0) return count;
    count += page.length;
    after = page[page.length - 1].position;
  }
}

async function main(): Promise<void> {
  const store = new SqliteEventStore({ file: required(args, 'file') });
  const events = Number(await store.headPosition());
  const mode = required(args, 'mode');
  const started = performance.now();
  const result =
    mode === 'projections'
      ? { instanceRows: await rebuild(withEventSchemas(store), required(args, 'models')) }
      : { eventsRead: await readEverything(store) };
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  emit({ mode, events, seconds, eventsPerSecond: events / seconds, ...result, rssBytes: process.memoryUsage().rss });
}

void main();
