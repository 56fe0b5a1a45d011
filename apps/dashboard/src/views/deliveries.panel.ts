import type { Attempt, NotificationItem } from '../api/types';
import { busy, field, fill, h, newId, when } from '../ui/dom';
import { Notice, Problem } from '../ui/notice';
import type { InstanceContext } from './instance-context';

const STATES: Record<NotificationItem['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  deadLettered: 'Dead-lettered',
  cancelled: 'Cancelled',
};
/** Notifications shown at once: the latest page. */
const PAGE = 50;

function panel(title: string, refresh: HTMLButtonElement, ...content: Node[]): HTMLElement {
  const id = newId('panel');
  return h(
    'section',
    { class: 'panel panel-wide', 'aria-labelledby': id },
    h('div', { class: 'panel-head' }, h('h2', { id }, title), refresh),
    ...content,
  );
}

function table(caption: string, headings: string[], rows: HTMLTableRowElement[]): HTMLTableElement {
  return h(
    'table',
    { class: 'table' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...headings.map((title) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, ...rows),
  );
}

/** The latest delivery attempts, newest first (docs/api.md 4.8), test attempts included (8.6). */
export function deliveryLogPanel(context: InstanceContext): { element: HTMLElement; refresh: () => void } {
  const notice = new Notice();
  const body = h('div', { class: 'table-area' });
  const refresh = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Refresh log');
  const row = (a: Attempt) =>
    h(
      'tr',
      {},
      h('td', {}, when(a.at)),
      h('td', {}, a.test ? 'Test' : `#${a.sequence}`),
      h(
        'td',
        {},
        h(
          'span',
          { class: `badge ${a.status >= 200 && a.status < 300 ? 'badge-ok' : 'badge-bad'}` },
          a.status ? `HTTP ${a.status}` : 'No answer',
        ),
      ),
      h('td', { class: a.error ? 'error-text' : 'muted' }, a.error || '—'),
      h('td', {}, `${a.durationMs} ms`),
      h('td', {}, when(a.nextAttemptAt)),
    );
  const load = async () => {
    try {
      const attempts = await context.api.logs(20);
      notice.clear();
      fill(
        body,
        attempts.length
          ? table(
              'Latest delivery attempts',
              ['Time', 'Notification', 'Answer', 'Error', 'Duration', 'Next attempt'],
              attempts.map(row),
            )
          : h('p', { class: 'empty' }, 'No delivery attempts yet.'),
      );
    } catch (error) {
      notice.failure(error, 'read the delivery log');
    }
  };
  refresh.addEventListener('click', () => void busy(refresh, load));
  void load();
  return {
    element: panel(
      'Delivery log',
      refresh,
      h('p', { class: 'hint' }, 'The latest 20 attempts, newest first.'),
      notice.element,
      body,
    ),
    refresh: () => void busy(refresh, load),
  };
}

/** What one notification carries, in words. */
function contentOf(body: NotificationItem['body']): string {
  if (Array.isArray(body.messages))
    return `${body.messages.length} ${body.messages.length === 1 ? 'message' : 'messages'}`;
  if (Array.isArray(body.ack)) return `${body.ack.length} ${body.ack.length === 1 ? 'ack' : 'acks'}`;
  if (body.instance) return `Instance notice: ${body.instance.event ?? ''}`;
  if (body.state) return `Connection state: ${body.state.state ?? ''}`;
  return '—';
}

/** The instance's notifications (8.7), the latest page, with redelivery of one or of a range (8.8). */
export function notificationsPanel(context: InstanceContext): HTMLElement {
  const notice = new Notice();
  const body = h('div', { class: 'table-area' });
  const summary = h('p', { class: 'hint' });
  const refresh = h(
    'button',
    { type: 'button', class: 'button button-secondary button-small' },
    'Refresh notifications',
  );

  const redeliver = async (from: number, to: number | undefined) => {
    const queued = await context.api.redeliver(from, to);
    notice.success(`Queued ${queued} ${queued === 1 ? 'notification' : 'notifications'} for delivery again.`);
    await load(false);
  };
  const row = (n: NotificationItem) => {
    const again = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Redeliver');
    again.addEventListener(
      'click',
      () =>
        void busy(again, async () => {
          try {
            await redeliver(n.sequence, n.sequence);
          } catch (error) {
            notice.failure(error, `redeliver notification ${n.sequence}`);
          }
        }),
    );
    return h(
      'tr',
      { 'data-sequence': n.sequence },
      h('th', { scope: 'row' }, `#${n.sequence}`),
      h('td', {}, contentOf(n.body)),
      h('td', {}, when(n.createdAt)),
      h('td', {}, h('span', { class: `badge badge-state-${n.state}` }, STATES[n.state])),
      h('td', {}, h('code', {}, n.webhookId)),
      h('td', {}, again),
    );
  };
  const load = async (clear = true) => {
    try {
      let page = await context.api.notifications(0, PAGE);
      if (page.lastSequence > PAGE) page = await context.api.notifications(page.lastSequence - PAGE, PAGE);
      if (clear) notice.clear();
      fill(
        summary,
        page.lastSequence > PAGE
          ? `Last sequence: ${page.lastSequence}; the latest ${PAGE} are shown.`
          : page.lastSequence
            ? `Last sequence: ${page.lastSequence}.`
            : '',
      );
      fill(
        body,
        page.notifications.length
          ? table(
              'Notifications',
              ['Sequence', 'Content', 'Created', 'State', 'Webhook ID', 'Actions'],
              page.notifications.map(row),
            )
          : h('p', { class: 'empty' }, 'No notifications yet.'),
      );
    } catch (error) {
      notice.failure(error, 'read the notifications');
    }
  };

  const from = field('From sequence', {
    name: 'from',
    type: 'number',
    min: 1,
    step: 1,
    inputmode: 'numeric',
    required: true,
  });
  const to = field('To sequence (optional)', { name: 'to', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
  const submit = h('button', { type: 'submit', class: 'button button-secondary' }, 'Redeliver range');
  const range = h(
    'form',
    { class: 'inline-form', novalidate: true, 'aria-label': 'Redeliver a range' },
    from.wrapper,
    to.wrapper,
    h('div', { class: 'actions' }, submit),
  );
  range.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(submit, async () => {
      try {
        const start = Number(from.input.value);
        if (!Number.isInteger(start) || start < 1 || from.input.value === '')
          throw new Problem('enter the first sequence to redeliver (1 or more)');
        await redeliver(start, to.input.value === '' ? undefined : Number(to.input.value));
      } catch (error) {
        notice.failure(error, 'redeliver');
      }
    });
  });
  refresh.addEventListener('click', () => void busy(refresh, () => load()));
  void load();
  const rangeHint = h(
    'p',
    { class: 'hint' },
    'Redeliver a range: every notification from the first to the last sequence given (an empty “to” means up to the last), with the same webhook-id and body, to the URL registered now.',
  );
  return panel('Notifications', refresh, summary, notice.element, body, range, rangeHint);
}
