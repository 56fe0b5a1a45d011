// `npm run bench [-- --quick] [--runs N] [--only a,d] [--latency-rate N] [--capacity-rates N,N] [--profile]`: runs each scenario beside its
// baseline in the same run, prints a table, and writes bench/results/<timestamp>.json and latest.json
// (latest-quick.json for --quick, which CI runs to keep the suite working; it asserts no speed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { scenarioI } from './scenarios/capacity';
import { scenarioA } from './scenarios/api-read';
import { scenarioB, scenarioC, scenarioH } from './scenarios/api-writes';
import { scenarioJ } from './scenarios/instance-pages';
import { scenarioF } from './scenarios/memory';
import { scenarioD } from './scenarios/notifier';
import { scenarioG } from './scenarios/notifier-start';
import { scenarioE } from './scenarios/replay';
import { FULL, QUICK, type BenchContext } from './support/context';
import { relaunchWithProbeFlags } from './support/probe-flags';
import type { ScenarioResult } from './support/figures';
import { RESULTS_DIR } from './support/paths';
import { commit, machine, summarize, table } from './support/report';

const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<ScenarioResult>> = {
  a: scenarioA,
  b: scenarioB,
  c: scenarioC,
  d: scenarioD,
  e: scenarioE,
  f: scenarioF,
  g: scenarioG,
  h: scenarioH,
  i: scenarioI,
  j: scenarioJ,
};

function positive(option: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${option} needs a whole number from 1, not ${value}`);
  return n;
}

function parseArgs(argv: string[]) {
  const options = {
    quick: false,
    runs: 1,
    only: Object.keys(SCENARIOS),
    profile: false,
    latencyRate: undefined as number | undefined,
    capacityRates: undefined as number[] | undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--profile') options.profile = true;
    else if (arg === '--runs') options.runs = Math.max(1, Number(argv[++i]));
    else if (arg === '--only') options.only = argv[++i].split(',').filter((id) => id in SCENARIOS);
    else if (arg === '--latency-rate') options.latencyRate = positive(arg, argv[++i]);
    else if (arg === '--capacity-rates')
      options.capacityRates = (argv[++i] ?? '').split(',').map((rate) => positive(arg, rate));
    else
      throw new Error(
        `unknown option ${arg}; use --quick, --runs N, --only a,b,..., --latency-rate N, --capacity-rates N,N or --profile`,
      );
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const ctx: BenchContext = {
    quick: options.quick,
    // --latency-rate: the offered rate of d's latency run (messages/s), to find where p99 leaves 50 ms.
    // --capacity-rates: the offered rates of i, to look closer at the knee.
    sizes: {
      ...(options.quick ? QUICK : FULL),
      ...(options.latencyRate ? { latencyRate: options.latencyRate } : {}),
      ...(options.capacityRates ? { capacityRates: options.capacityRates } : {}),
    },
    profile: options.profile,
    log: (message) =>
      process.stderr.write(
        `[bench ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4)} s] ${message}\n`,
      ),
  };
  const runs: ScenarioResult[][] = [];
  const errors: Array<{ run: number; scenario: string; error: string }> = [];
  for (let run = 1; run <= options.runs; run++) {
    const results: ScenarioResult[] = [];
    for (const id of options.only) {
      ctx.log(`run ${run}/${options.runs}: scenario ${id}`);
      const loadAverage = Number(loadavg()[0].toFixed(2));
      try {
        results.push({ ...(await SCENARIOS[id](ctx)), loadAverage });
      } catch (error) {
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
        errors.push({ run, scenario: id, error: text });
        ctx.log(`scenario ${id} failed: ${text}`);
      }
    }
    runs.push(results);
  }

  const summary = summarize(runs);
  const wallSeconds = (Date.now() - startedAt.getTime()) / 1000;
  const scenarios = new Map(runs.flat().map((s) => [s.id, s]));
  const legend = [...scenarios.values()].map((s) => `- ${s.id}: ${s.title}; baseline: ${s.baseline}`);
  const spreadNote = options.runs > 1 ? `median (min–max) of ${options.runs} runs` : 'one run';
  const loads = runs.map((run) => run.map((s) => `${s.id} ${s.loadAverage}`).join(', '));
  legend.push(`- load average (1 min) as each scenario started, per run: ${loads.join(' | ')}`);
  process.stdout.write(
    `\n${table(summary, options.runs)}\n\n${spreadNote}; ratio = measured / baseline\n${legend.join('\n')}\n`,
  );
  process.stdout.write(
    `\n${options.quick ? 'quick' : 'full'} run took ${wallSeconds.toFixed(0)} s${errors.length ? `; ${errors.length} scenario(s) FAILED` : ''}\n`,
  );

  const report = {
    schema: 1,
    mode: options.quick ? 'quick' : 'full',
    startedAt: startedAt.toISOString(),
    wallSeconds,
    commit: commit(),
    machine: machine(),
    sizes: ctx.sizes,
    runs: options.runs,
    summary,
    results: runs,
    errors,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const suffix = options.quick ? '-quick' : '';
  const text = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(RESULTS_DIR, `${stamp}${suffix}.json`), text);
  // Only a complete full run of every scenario replaces latest.json, the one kept in the repository.
  const complete = !options.quick && errors.length === 0 && options.only.length === Object.keys(SCENARIOS).length;
  writeFileSync(join(RESULTS_DIR, complete ? 'latest.json' : `latest${suffix || '-partial'}.json`), text);
  process.exitCode = errors.length ? 1 : 0;
}

// Under the probe's V8 flags (support/probe-flags.ts), however the script was started.
if (!relaunchWithProbeFlags())
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
