import { growth, GROWTH_LIMITS, mib, trend, type Sample } from './memory';
import type { Operation, OperationStats } from './model';

export interface Figures {
  minutes: number;
  rate: number;
  loadSeconds: number;
  stats: Record<Operation, OperationStats>;
  shed: number;
  expectedItems: number;
  deliveredItems: number;
  /** Distinct notifications (webhook-ids) delivered and the items they carried, each counted once. */
  notifications: {
    delivered: number;
    itemsCarried: number;
    deliveredDuringLoad: { notifications: number; items: number };
    requests: number;
    failedOnPurpose: number;
  };
  memory: Array<{ name: string; samples: Sample[] }>;
  measuredMs: number;
}

const row = (cells: Array<string | number>, widths: number[]) =>
  cells.map((c, i) => String(c).padStart(widths[i])).join('  ');

/** The soak's figures as a short plain-text table. */
export function renderFigures(f: Figures): string {
  const lines = [
    `soak: ${f.minutes} min measured (after a warm-up), target ${f.rate} requests/s; load ran ${f.loadSeconds.toFixed(0)} s`,
  ];
  const widths = [16, 8, 8, 8, 6, 9, 8, 7];
  lines.push(row(['operation', 'sent', 'ok', 'refused', '5xx', 'noAnswer', 'mean ms', 'max ms'], widths));
  let total = 0;
  for (const [op, s] of Object.entries(f.stats)) {
    total += s.sent;
    const answered = s.sent - s.noAnswer;
    lines.push(
      row(
        [
          op,
          s.sent,
          s.ok,
          s.refused,
          s.serverErrors,
          s.noAnswer,
          answered ? (s.totalMs / answered).toFixed(1) : '-',
          s.maxMs,
        ],
        widths,
      ),
    );
  }
  lines.push(
    `total ${total} requests (setup and final checks included), ${(total / f.loadSeconds).toFixed(0)}/s; ${f.shed} not started (concurrency bound)`,
  );
  const n = f.notifications;
  const during = n.deliveredDuringLoad;
  lines.push(
    `notifications: ${f.expectedItems} items (messages and acks) accepted with delivery on, ${f.deliveredItems} of them delivered; ` +
      `${n.delivered} notifications (distinct webhook-ids) delivered carrying ${n.itemsCarried} items, ` +
      `${n.delivered ? (n.itemsCarried / n.delivered).toFixed(2) : '-'} per notification; during the load ` +
      `${(during.notifications / f.loadSeconds).toFixed(1)} notifications/s and ${(during.items / f.loadSeconds).toFixed(1)} items/s delivered; ` +
      `${n.requests} requests to the receiver, ${n.failedOnPurpose} answered 500 on purpose`,
  );
  const bounds = (['heap', 'rss'] as const)
    .map((m) => `${m} +${GROWTH_LIMITS[m].relative * 100}% and +${mib(GROWTH_LIMITS[m].absolute)} MiB`)
    .join(', ');
  lines.push(
    `memory (MiB, median of the first vs the last ${f.measuredMs < 120_000 ? 'third of the samples' : 'minute'}; fails over ${bounds}):`,
  );
  const memWidths = [10, 8, 10, 10, 9, 8];
  lines.push(row(['process', 'metric', 'first', 'last', 'growth', 'samples'], memWidths));
  for (const { name, samples } of f.memory) {
    for (const g of growth(samples, f.measuredMs)) {
      const label = g.metric === 'heap' ? 'heap/GC' : 'rss';
      lines.push(
        row(
          [
            name,
            label,
            mib(g.first),
            mib(g.last),
            `${g.last >= g.first ? '+' : ''}${mib(g.last - g.first)}`,
            samples.length,
          ],
          memWidths,
        ) + (g.growing ? '  GROWING' : ''),
      );
    }
  }
  const per = f.measuredMs < 120_000 ? 'third' : 'minute';
  for (const { name, samples } of f.memory) {
    if (!samples.length) continue;
    const t = trend(samples, f.measuredMs);
    lines.push(
      `${name} by ${per}: heap/GC ${t.heap.map(mib).join(' ')}; rss ${t.rss.map(mib).join(' ')}; CPU % of a core ${t.cpu.map((c) => (100 * c).toFixed(0)).join(' ')}`,
    );
  }
  return lines.join('\n');
}
