import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { ROOT } from '@gw/testing';
import { goalText, median, meets, type Figure, type Goal, type ScenarioResult } from './figures';

export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** One figure over every run: the spread of its value, baseline and ratio. */
export interface SummaryRow {
  key: string;
  scenario: string;
  label: string;
  unit: string;
  value: Spread;
  baseline?: Spread;
  ratio?: Spread;
  goal?: Goal;
  /** Judged on the median. */
  met?: boolean;
}

export function machine() {
  const model =
    /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // cpus() it is
  }
  return {
    nproc,
    cpu: model,
    node: process.version,
    // The probe's own flags (support/probe-flags.ts) among them.
    nodeOptions: process.execArgv,
    platform: `${process.platform} ${process.arch}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

/** The commit measured (read-only). */
export function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

const spread = (values: number[]): Spread => ({
  min: Math.min(...values),
  median: median(values),
  max: Math.max(...values),
});

export function summarize(runs: ScenarioResult[][]): SummaryRow[] {
  const byKey = new Map<string, { scenario: string; figures: Figure[] }>();
  for (const run of runs) {
    for (const scenario of run) {
      for (const f of scenario.figures) {
        const entry = byKey.get(f.key) ?? { scenario: scenario.id, figures: [] };
        entry.figures.push(f);
        byKey.set(f.key, entry);
      }
    }
  }
  return [...byKey.entries()].map(([key, { scenario, figures }]) => {
    const [first] = figures;
    const pick = (get: (f: Figure) => number | undefined) => {
      const values = figures.map(get).filter((v): v is number => v !== undefined && Number.isFinite(v));
      return values.length ? spread(values) : undefined;
    };
    const value = pick((f) => f.value)!;
    const baseline = pick((f) => f.baseline);
    const ratio = pick((f) => f.ratio);
    const goal = first.goal;
    const judged = goal?.on === 'ratio' ? ratio?.median : value.median;
    const met = goal && judged !== undefined ? meets(goal, judged) : undefined;
    return {
      key,
      scenario,
      label: first.label,
      unit: first.unit,
      value,
      ...(baseline ? { baseline } : {}),
      ...(ratio ? { ratio } : {}),
      ...(goal ? { goal, met } : {}),
    };
  });
}

function formatNumber(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

const shown = (s: Spread | undefined, runs: number) =>
  s === undefined
    ? ''
    : runs > 1
      ? `${formatNumber(s.median)} (${formatNumber(s.min)}–${formatNumber(s.max)})`
      : formatNumber(s.median);

/** A Markdown table: the median of each figure with its range over the runs when there are several. */
export function table(rows: SummaryRow[], runs: number): string {
  const header = ['', 'figure', 'measured', 'baseline', 'ratio', 'goal', ''];
  const lines = rows.map((r) => [
    r.scenario,
    r.unit ? `${r.label} (${r.unit})` : r.label,
    shown(r.value, runs),
    shown(r.baseline, runs),
    shown(r.ratio, runs),
    r.goal ? goalText(r.goal) : '',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)].join('\n');
}
