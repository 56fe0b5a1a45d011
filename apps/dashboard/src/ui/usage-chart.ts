import type { UsageDay } from '../api/types';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 180;
const PAD = { left: 36, right: 8, top: 12, bottom: 28 };
const DAY_MS = 24 * 60 * 60 * 1000;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: Array<Node | string>
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Every UTC day from `from` to `to`, both included (`YYYY-MM-DD`). */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * An instance's notifications delivered and attempts failed per UTC day (docs/api.md 13.3), drawn as
 * paired bars in SVG by the page itself: no chart library, nothing fetched. Each day is a group that
 * names its day and counts (a tooltip, and data attributes the browser suite reads); the figure's
 * accessible name sums the range up.
 */
export function usageChart(from: string, to: string, usage: readonly UsageDay[]): SVGSVGElement {
  const byDay = new Map(usage.map((u) => [u.day, u]));
  const days = daysOf(from, to);
  const counts = days.map((day) => ({
    day,
    delivered: byDay.get(day)?.notificationsDelivered ?? 0,
    failed: byDay.get(day)?.attemptsFailed ?? 0,
  }));
  const top = Math.max(1, ...counts.map((c) => Math.max(c.delivered, c.failed)));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = (WIDTH - PAD.left - PAD.right) / Math.max(1, days.length);
  const bar = Math.max(1, slot / 2 - 1);
  const y = (n: number) => PAD.top + plotHeight - (n / top) * plotHeight;
  const delivered = counts.reduce((sum, c) => sum + c.delivered, 0);
  const failed = counts.reduce((sum, c) => sum + c.failed, 0);
  const summary = `${delivered} notifications delivered and ${failed} attempts failed from ${from} to ${to}`;

  const groups = counts.map((c, i) => {
    const x = PAD.left + i * slot;
    return svg(
      'g',
      { class: 'usage-day', 'data-day': c.day, 'data-delivered': c.delivered, 'data-failed': c.failed },
      svg('title', {}, `${c.day}: ${c.delivered} delivered, ${c.failed} failed`),
      svg('rect', {
        class: 'usage-bar usage-delivered',
        x,
        y: y(c.delivered),
        width: bar,
        height: y(0) - y(c.delivered),
      }),
      svg('rect', {
        class: 'usage-bar usage-failed',
        x: x + bar + 1,
        y: y(c.failed),
        width: bar,
        height: y(0) - y(c.failed),
      }),
    );
  });
  const label = (x: number, text: string, anchor: string) =>
    svg('text', { x, y: HEIGHT - 8, 'text-anchor': anchor, class: 'usage-axis' }, text);
  return svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': summary, class: 'usage-chart' },
    svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0), class: 'usage-baseline' }),
    svg('text', { x: PAD.left - 6, y: y(top) + 4, 'text-anchor': 'end', class: 'usage-axis' }, String(top)),
    svg('text', { x: PAD.left - 6, y: y(0), 'text-anchor': 'end', class: 'usage-axis' }, '0'),
    ...groups,
    label(PAD.left, from, 'start'),
    label(WIDTH - PAD.right, to, 'end'),
  );
}
