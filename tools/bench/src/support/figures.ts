/** What a scenario measured: figures, each with its baseline from the same run where it has one. */

export interface Goal {
  /** The goal is on the ratio to the baseline, or on the value itself. */
  on: 'ratio' | 'value';
  op: '>=' | '<' | '<=';
  target: number;
}

export interface Figure {
  /** Stable key across runs, e.g. `a.rps`. */
  key: string;
  label: string;
  unit: string;
  value: number;
  baseline?: number;
  /** value / baseline. */
  ratio?: number;
  goal?: Goal;
  met?: boolean;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** What the baseline is, in a few words. */
  baseline: string;
  figures: Figure[];
  /** Raw measurements for the JSON file. */
  raw: Record<string, unknown>;
  seconds: number;
  /** The machine's 1-minute load average when the scenario started: other work on it shows here. */
  loadAverage?: number;
}

export function figure(
  key: string,
  label: string,
  unit: string,
  value: number,
  baseline?: number,
  goal?: Goal,
): Figure {
  const ratio = baseline === undefined || baseline === 0 ? undefined : value / baseline;
  const judged = goal?.on === 'ratio' ? ratio : value;
  const met = goal && judged !== undefined ? meets(goal, judged) : undefined;
  return {
    key,
    label,
    unit,
    value,
    ...(baseline === undefined ? {} : { baseline }),
    ...(ratio === undefined ? {} : { ratio }),
    ...(goal ? { goal, met } : {}),
  };
}

export function goalText(goal: Goal): string {
  return `${goal.on === 'ratio' ? 'ratio ' : ''}${{ '>=': '≥', '<': '<', '<=': '≤' }[goal.op]} ${goal.target.toLocaleString('en-US')}`;
}

/** Whether `judged` (a ratio or a value, as the goal says) meets the goal. */
export function meets(goal: Goal, judged: number): boolean {
  return goal.op === '>=' ? judged >= goal.target : goal.op === '<=' ? judged <= goal.target : judged < goal.target;
}

/** Nearest-rank percentile of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export const MiB = 1024 * 1024;
