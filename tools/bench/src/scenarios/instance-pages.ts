import { join } from 'node:path';
import { AppChild, newSecrets, removeDir, tempDir } from '../support/apps';
import { expectSuccess } from '../support/api-fixture';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, type ScenarioResult } from '../support/figures';
import { syntheticAccount } from '../support/synthetic-log';

/** Instances per page of the walk: the dashboard's page is 50, a client's up to 1000. */
const PAGE = 100;

interface PagesRun {
  instances: number;
  pages: number;
  /** Milliseconds per page, in walk order. */
  ms: number[];
  firstMs: number;
  lastMs: number;
  medianMs: number;
  p99Ms: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Starts an API on a log of one account holding `instances` instances and walks all of its
 * listInstances pages of PAGE with `after`, timing each call over HTTP. */
async function walk(ctx: BenchContext, instances: number, label: string): Promise<PagesRun> {
  const dir = tempDir(label);
  const secrets = newSecrets();
  try {
    await runChild('generate-log', [
      '--file',
      join(dir, 'events.sqlite'),
      '--kind',
      'instances',
      '--instances',
      String(instances),
      '--per-account',
      String(instances),
      '--secrets-key',
      secrets.secretsKey,
    ]);
    const api = await AppChild.start('api', {
      dataDir: dir,
      secrets,
      readyTimeoutMs: 600_000,
      profileLabel: ctx.profile ? `${label}-api` : undefined,
    });
    try {
      const { email, apikey } = syntheticAccount(0);
      const ms: number[] = [];
      let after: string | null = null;
      let seen = 0;
      do {
        const params = new URLSearchParams({ email, apikey, limit: String(PAGE), ...(after ? { after } : {}) });
        const started = performance.now();
        const page = (await expectSuccess(await fetch(`${api.url('account')}/listInstances?${params}`))) as {
          instances: unknown[];
          next: string | null;
        };
        ms.push(performance.now() - started);
        seen += page.instances.length;
        after = page.next;
      } while (after !== null);
      if (seen !== instances) throw new Error(`the walk saw ${seen} instances, not ${instances}`);
      const sorted = [...ms].sort((a, b) => a - b);
      return {
        instances,
        pages: ms.length,
        ms,
        firstMs: ms[0],
        lastMs: ms[ms.length - 1],
        medianMs: quantile(sorted, 0.5),
        p99Ms: quantile(sorted, 0.99),
      };
    } finally {
      await api.stop();
    }
  } finally {
    removeDir(dir);
  }
}

/** j. listInstances pages (docs/api.md 13.1) of one account with many instances, against the same
 * walk of an account with 1,000: a page's cost should not grow with the account. */
export async function scenarioJ(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  ctx.log('j: baseline, one account with 1,000 instances');
  const baseline = await walk(ctx, 1_000, 'j-small');
  ctx.log(`j: one account with ${ctx.sizes.pagingInstances} instances`);
  const large = await walk(ctx, ctx.sizes.pagingInstances, 'j');
  const { ms: _largeMs, ...largeRaw } = large;
  const { ms: _baselineMs, ...baselineRaw } = baseline;
  return {
    id: 'j',
    title: `listInstances pages of ${PAGE}, one account with ${large.instances} instances`,
    baseline: 'the same walk of an account with 1,000 instances',
    figures: [
      figure('j.median', 'page latency, median', 'ms', large.medianMs, baseline.medianMs, {
        on: 'ratio',
        op: '<=',
        target: 2,
      }),
      figure('j.p99', 'page latency, p99', 'ms', large.p99Ms, baseline.p99Ms),
      figure('j.last', 'last page latency', 'ms', large.lastMs, baseline.lastMs),
    ],
    raw: { large: largeRaw, baseline: baselineRaw },
    seconds: (performance.now() - started) / 1000,
  };
}
