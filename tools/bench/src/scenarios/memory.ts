import { join } from 'node:path';
import { AppChild, newSecrets, removeDir, tempDir } from '../support/apps';
import { expectSuccess, postJson } from '../support/api-fixture';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, MiB, type ScenarioResult } from '../support/figures';
import { syntheticAccount, syntheticInstance } from '../support/synthetic-log';

interface MemoryRun {
  instances: number;
  events: number;
  startSeconds: number;
  rss: number;
  peak: number;
}

/** Starts an API on a log of `instances` instances (it builds its read models on start), runs a few
 * queries of each kind, and reads the API process's resident memory. */
async function apiMemory(ctx: BenchContext, instances: number, label: string): Promise<MemoryRun> {
  const dir = tempDir(label);
  const secrets = newSecrets();
  try {
    const log = await runChild<{ events: number; accounts: number }>('generate-log', [
      '--file',
      join(dir, 'events.sqlite'),
      '--kind',
      'instances',
      '--instances',
      String(instances),
      '--secrets-key',
      secrets.secretsKey,
    ]);
    const started = performance.now();
    const api = await AppChild.start('api', {
      dataDir: dir,
      secrets,
      readyTimeoutMs: 600_000,
      profileLabel: ctx.profile ? `${label}-api` : undefined,
    });
    const startSeconds = (performance.now() - started) / 1000;
    try {
      for (let q = 0; q < 50; q++) {
        const i = Math.floor((q * instances) / 50);
        await expectSuccess(await postJson(`${api.url('instance')}/getWebhookStatus`, syntheticInstance(i)));
        await expectSuccess(await postJson(`${api.url('instance')}/getWebhookLogs`, syntheticInstance(i)));
      }
      for (let a = 0; a < Math.min(10, log.accounts); a++) {
        const { email, apikey } = syntheticAccount(Math.floor((a * log.accounts) / 10));
        await expectSuccess(
          await fetch(`${api.url('account')}/listInstances?${new URLSearchParams({ email, apikey })}`),
        );
      }
      return { instances, events: log.events, startSeconds, ...api.memory() };
    } finally {
      await api.stop();
    }
  } finally {
    removeDir(dir);
  }
}

/** f. API resident memory with many instances in the read models, against the same API with 100. */
export async function scenarioF(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  ctx.log('f: baseline, API with 100 instances');
  const baseline = await apiMemory(ctx, 100, 'f-small');
  ctx.log(`f: API with ${ctx.sizes.memoryInstances} instances`);
  const large = await apiMemory(ctx, ctx.sizes.memoryInstances, 'f');
  return {
    id: 'f',
    title: `API memory with ${large.instances} instances`,
    baseline: 'the same API with 100 instances, same queries',
    figures: [
      figure('f.rss', 'API RSS after queries', 'MiB', large.rss / MiB, baseline.rss / MiB, {
        on: 'value',
        op: '<',
        target: 300,
      }),
      figure('f.peak', 'API peak RSS (VmHWM)', 'MiB', large.peak / MiB, baseline.peak / MiB),
      figure('f.start', 'API start (read models built)', 's', large.startSeconds, baseline.startSeconds),
    ],
    raw: { large, baseline },
    seconds: (performance.now() - started) / 1000,
  };
}
