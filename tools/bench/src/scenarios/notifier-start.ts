import { join } from 'node:path';
import { AppChild, newSecrets, removeDir, tempDir, type Secrets } from '../support/apps';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, MiB, type ScenarioResult } from '../support/figures';

/** Starts from the snapshot timed per log, taken in turns with the other log's: one start is a
 * few hundred milliseconds, which a busy moment of the machine can double, so the median counts. */
const STARTS_FROM_SNAPSHOT = 3;
/** How often /healthz is asked while a timed start runs: the time is known to this much. */
const READY_POLL_MS = 5;

interface Start {
  seconds: number;
  rss: number;
  replayed: number;
}

/** A generated log a notifier ran on once (the whole log replayed) and left a snapshot of. */
interface PreparedLog {
  dir: string;
  secrets: Secrets;
  events: number;
  first: Start;
}

/** A gauge or counter's value in a Prometheus text (NaN when absent). */
function metric(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

async function startNotifier(
  ctx: BenchContext,
  dir: string,
  secrets: Secrets,
  label: string,
): Promise<Start & { notifier: AppChild }> {
  const started = performance.now();
  const notifier = await AppChild.start('notifier', {
    dataDir: dir,
    secrets,
    readyTimeoutMs: 600_000,
    readyPollMs: READY_POLL_MS,
    profileLabel: ctx.profile ? label : undefined,
  });
  const seconds = (performance.now() - started) / 1000;
  const text = await (await fetch(`${notifier.url('notifier')}/metrics`)).text();
  return { notifier, seconds, rss: notifier.memory().rss, replayed: metric(text, 'notifier_start_replayed_events') };
}

/** Generates a log of `events` events and starts a notifier on it once: that start replays it all
 * and leaves a snapshot once it followed NOTIFIER_SNAPSHOT_EVERY events. */
async function prepareLog(ctx: BenchContext, events: number, label: string): Promise<PreparedLog> {
  const dir = tempDir(label);
  const secrets = newSecrets();
  try {
    const log = await runChild<{ events: number }>('generate-log', [
      '--file',
      join(dir, 'events.sqlite'),
      '--kind',
      'replay',
      '--events',
      String(events),
      '--secrets-key',
      secrets.secretsKey,
    ]);
    const { notifier, ...first } = await startNotifier(ctx, dir, secrets, `${label}-first`);
    // The snapshot is written in the background right after the start: wait until it is recorded.
    const deadline = Date.now() + 120_000;
    while (log.events >= 50_000 && Date.now() < deadline) {
      const text = await (await fetch(`${notifier.url('notifier')}/metrics`)).text();
      if (metric(text, 'notifier_snapshots_total') >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await notifier.stop();
    return { dir, secrets, events: log.events, first };
  } catch (error) {
    removeDir(dir);
    throw error;
  }
}

/** A start from the snapshot a prepared log holds, timed until /healthz answers. */
async function startAgain(ctx: BenchContext, log: PreparedLog, label: string): Promise<Start> {
  const { notifier, ...start } = await startNotifier(ctx, log.dir, log.secrets, label);
  await notifier.stop();
  return start;
}

/** The start whose time is the median of `starts` (an odd count). */
function medianStart(starts: readonly Start[]): Start {
  return [...starts].sort((a, b) => a.seconds - b.seconds)[(starts.length - 1) >> 1];
}

/**
 * g. The notifier's start on a large log against the same on a log ten times smaller: with its state
 * kept as a snapshot, a start should cost the live state, not the history.
 */
export async function scenarioG(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const largeEvents = ctx.sizes.replayEvents;
  ctx.log(`g: baseline, a log of ${largeEvents / 10} events and a notifier's first start on it`);
  const small = await prepareLog(ctx, largeEvents / 10, 'g-small');
  let large: PreparedLog | undefined;
  try {
    ctx.log(`g: a log of ${largeEvents} events and a notifier's first start on it`);
    large = await prepareLog(ctx, largeEvents, 'g-large');
    ctx.log(`g: ${STARTS_FROM_SNAPSHOT} starts from the snapshot on each log, in turns`);
    const starts: { small: Start[]; large: Start[] } = { small: [], large: [] };
    for (let k = 0; k < STARTS_FROM_SNAPSHOT; k++) {
      const label = (name: string) => (k === 0 ? name : `${name}-${k + 1}`);
      starts.small.push(await startAgain(ctx, small, label('g-small')));
      starts.large.push(await startAgain(ctx, large, label('g-large')));
    }
    const again = { small: medianStart(starts.small), large: medianStart(starts.large) };
    // The goal on memory is judged on the largest of the starts, not the median's.
    const rss = (list: Start[]) => Math.max(...list.map((start) => start.rss)) / MiB;
    return {
      id: 'g',
      title: `notifier start on ${large.events} events, against ${small.events}`,
      baseline: 'the same start on a log ten times smaller',
      figures: [
        figure(
          'g.notifierStart',
          `notifier start from its snapshot, median of ${STARTS_FROM_SNAPSHOT}`,
          's',
          again.large.seconds,
          again.small.seconds,
          { on: 'value', op: '<', target: 3 },
        ),
        figure(
          'g.notifierStartRatio',
          'start, large log / small log',
          '',
          again.large.seconds / again.small.seconds,
          undefined,
          { on: 'value', op: '<=', target: 1.5 },
        ),
        figure(
          'g.notifierRss',
          'notifier RSS after that start, the largest of the starts',
          'MiB',
          rss(starts.large),
          rss(starts.small),
          {
            on: 'value',
            op: '<',
            target: 200,
          },
        ),
        figure('g.firstStart', 'first start, whole log replayed', 's', large.first.seconds, small.first.seconds),
        figure('g.firstRss', 'RSS after the first start', 'MiB', large.first.rss / MiB, small.first.rss / MiB),
        figure(
          'g.replayed',
          'events replayed by the start from the snapshot',
          '',
          again.large.replayed,
          again.small.replayed,
        ),
      ],
      raw: {
        small: { events: small.events, first: small.first, again: again.small, starts: starts.small },
        large: { events: large.events, first: large.first, again: again.large, starts: starts.large },
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    removeDir(small.dir);
    if (large) removeDir(large.dir);
  }
}
