import { join } from 'node:path';
import { AppChild, newSecrets, removeDir, tempDir, type Secrets } from '../support/apps';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, MiB, type ScenarioResult } from '../support/figures';

interface StartRun {
  events: number;
  /** The first start on the log: no snapshot yet, the whole log replayed. */
  first: { seconds: number; rss: number; replayed: number };
  /** A start after a notifier ran on the log and stopped: from the snapshot it left. */
  again: { seconds: number; rss: number; replayed: number };
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
): Promise<{ notifier: AppChild; seconds: number; rss: number; replayed: number }> {
  const started = performance.now();
  const notifier = await AppChild.start('notifier', {
    dataDir: dir,
    secrets,
    readyTimeoutMs: 600_000,
    profileLabel: ctx.profile ? label : undefined,
  });
  const seconds = (performance.now() - started) / 1000;
  const text = await (await fetch(`${notifier.url('notifier')}/metrics`)).text();
  return { notifier, seconds, rss: notifier.memory().rss, replayed: metric(text, 'notifier_start_replayed_events') };
}

/** Starts a notifier on a generated log of `events` events twice: the first start replays it all
 * (and leaves a snapshot once it followed NOTIFIER_SNAPSHOT_EVERY events); the second is timed. */
async function notifierStarts(ctx: BenchContext, events: number, label: string): Promise<StartRun> {
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
    const first = await startNotifier(ctx, dir, secrets, `${label}-first`);
    // The snapshot is written in the background right after the start: wait until it is recorded.
    const deadline = Date.now() + 120_000;
    while (log.events >= 50_000 && Date.now() < deadline) {
      const text = await (await fetch(`${first.notifier.url('notifier')}/metrics`)).text();
      if (metric(text, 'notifier_snapshots_total') >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await first.notifier.stop();
    const again = await startNotifier(ctx, dir, secrets, label);
    await again.notifier.stop();
    const pick = ({ seconds, rss, replayed }: typeof first) => ({ seconds, rss, replayed });
    return { events: log.events, first: pick(first), again: pick(again) };
  } finally {
    removeDir(dir);
  }
}

/**
 * g. The notifier's start on a large log against the same on a log ten times smaller: with its state
 * kept as a snapshot, a start should cost the live state, not the history.
 */
export async function scenarioG(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const largeEvents = ctx.sizes.replayEvents;
  ctx.log(`g: baseline, notifier starts on a log of ${largeEvents / 10} events`);
  const small = await notifierStarts(ctx, largeEvents / 10, 'g-small');
  ctx.log(`g: notifier starts on a log of ${largeEvents} events`);
  const large = await notifierStarts(ctx, largeEvents, 'g-large');
  return {
    id: 'g',
    title: `notifier start on ${large.events} events, against ${small.events}`,
    baseline: 'the same start on a log ten times smaller',
    figures: [
      figure('g.notifierStart', 'notifier start from its snapshot', 's', large.again.seconds, small.again.seconds, {
        on: 'value',
        op: '<',
        target: 3,
      }),
      figure(
        'g.notifierStartRatio',
        'start, large log / small log',
        '',
        large.again.seconds / small.again.seconds,
        undefined,
        { on: 'value', op: '<=', target: 1.5 },
      ),
      figure('g.notifierRss', 'notifier RSS after that start', 'MiB', large.again.rss / MiB, small.again.rss / MiB, {
        on: 'value',
        op: '<',
        target: 200,
      }),
      figure('g.firstStart', 'first start, whole log replayed', 's', large.first.seconds, small.first.seconds),
      figure('g.firstRss', 'RSS after the first start', 'MiB', large.first.rss / MiB, small.first.rss / MiB),
      figure(
        'g.replayed',
        'events replayed by the start from the snapshot',
        '',
        large.again.replayed,
        small.again.replayed,
      ),
    ],
    raw: { small, large },
    seconds: (performance.now() - started) / 1000,
  };
}
