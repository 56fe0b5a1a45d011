import { join } from 'node:path';
import { newSecrets, removeDir, tempDir } from '../support/apps';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, type ScenarioResult } from '../support/figures';
import { PROFILES_DIR } from '../support/paths';

interface ReplayRun {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  rssBytes: number;
}

/**
 * e. Rebuilding every read model from the log (as the API does on start) against a plain sequential
 * read of the same log in pages, each in a fresh process.
 */
export async function scenarioE(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const dir = tempDir('e');
  try {
    const file = join(dir, 'events.sqlite');
    ctx.log(`e: writing a log of ${ctx.sizes.replayEvents} events`);
    const log = await runChild<Record<string, number>>('generate-log', [
      '--file',
      file,
      '--kind',
      'replay',
      '--events',
      String(ctx.sizes.replayEvents),
      '--secrets-key',
      newSecrets().secretsKey,
    ]);
    ctx.log('e: baseline, sequential readAll');
    const read = await runChild<ReplayRun>('replay', ['--file', file, '--mode', 'read']);
    ctx.log('e: rebuilding the read models');
    const nodeArgs = ctx.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILES_DIR, 'e-replay')}`] : [];
    const rebuild = await runChild<ReplayRun & { instanceRows: number }>(
      'replay',
      ['--file', file, '--mode', 'projections', '--models', join(dir, 'read-models.sqlite')],
      { nodeArgs },
    );
    if (rebuild.instanceRows !== log['instances'])
      throw new Error(`read models hold ${rebuild.instanceRows} instances, the log ${log['instances']}`);
    return {
      id: 'e',
      title: `replay: rebuild read models from ${rebuild.events} events`,
      baseline: 'sequential readAll pages of the same log',
      figures: [
        figure('e.rate', 'events/s', '', rebuild.eventsPerSecond, read.eventsPerSecond, {
          on: 'value',
          op: '>=',
          target: 200_000,
        }),
        figure('e.seconds', 'rebuild time', 's', rebuild.seconds, read.seconds),
      ],
      raw: { log, read, rebuild },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    removeDir(dir);
  }
}
