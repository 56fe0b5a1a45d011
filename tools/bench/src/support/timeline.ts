import { percentile } from './figures';

/** One window of a latency run, by when its messages were sent. */
export interface TimelineWindow {
  /** Seconds from the run's first send to the window's start. */
  from: number;
  /** Messages sent in the window that arrived. */
  received: number;
  /** Their recorded→received latency, ms. */
  p50: number;
  p99: number;
  max: number;
  /** Their ingest answer time (sent → answered), ms; NaN when none was answered. */
  answerP50: number;
  answerMax: number;
}

/** A sample: when a message was sent (any clock, ms), and how long it took. */
export type Timed = readonly [sentAt: number, ms: number];

/**
 * Latencies and answer times grouped into windows of `windowMs` by send time, from the first send on:
 * whether a run's p99 came from the whole run or from one episode in it, and whether the ingest
 * answers (the API) slowed down with it. Windows in which nothing arrived are left out.
 */
export function timeline(latencies: readonly Timed[], answers: readonly Timed[], windowMs: number): TimelineWindow[] {
  // A loop, not Math.min(...): a run at 4,000/s has too many samples for one call's arguments.
  let start = Infinity;
  for (const [at] of latencies) if (at < start) start = at;
  for (const [at] of answers) if (at < start) start = at;
  const windows = new Map<number, { latencies: number[]; answers: number[] }>();
  const windowOf = (at: number) => {
    const k = Math.floor((at - start) / windowMs);
    let w = windows.get(k);
    if (!w) windows.set(k, (w = { latencies: [], answers: [] }));
    return w;
  };
  for (const [at, ms] of latencies) windowOf(at).latencies.push(ms);
  for (const [at, ms] of answers) windowOf(at).answers.push(ms);
  return [...windows.entries()]
    .filter(([, w]) => w.latencies.length > 0)
    .sort(([a], [b]) => a - b)
    .map(([k, w]) => ({
      from: (k * windowMs) / 1000,
      received: w.latencies.length,
      p50: percentile(w.latencies, 50),
      p99: percentile(w.latencies, 99),
      max: percentile(w.latencies, 100),
      answerP50: percentile(w.answers, 50),
      answerMax: percentile(w.answers, 100),
    }));
}
