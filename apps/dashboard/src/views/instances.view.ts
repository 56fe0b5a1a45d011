import type { AccountApi } from '../api/client';
import type { InstanceQuery } from '../api/types';
import { busy, field, fill, h, newId } from '../ui/dom';
import { Notice } from '../ui/notice';
import { editLabel, newInstance, openWithToken, remove, renew, resetToken, showUsage } from './instance-actions';
import { instancesTable, type RowActions } from './instances-table';
import type { Page } from './page';

/** Rows per page: a page costs the same whatever the account holds (docs/api.md 13.1), so an
 * account with ten thousand instances opens as fast as one with ten. */
const PAGE_SIZE = 50;

/** The account's instances (docs/api.md 4.3, 13.1), a page at a time, filtered by status and
 * label, and what can be done to each. */
export function renderInstances(app: Page, account: AccountApi, message?: string): HTMLElement {
  const notice = new Notice();
  if (message) notice.success(message);
  const body = h('div', { class: 'table-area' }, h('p', { class: 'muted' }, 'Loading instances…'));
  const refresh = h('button', { type: 'button', class: 'button button-secondary' }, 'Refresh');
  const create = h('button', { type: 'button', class: 'button button-primary' }, 'New instance');
  const statusId = newId('status');
  const status = h(
    'select',
    { id: statusId, name: 'status' },
    h('option', { value: '' }, 'All'),
    h('option', { value: 'active' }, 'Active'),
    h('option', { value: 'expired' }, 'Expired'),
  );
  const label = field('Label', { name: 'label', type: 'search', autocomplete: 'off', maxlength: 64 });
  const apply = h('button', { type: 'submit', class: 'button button-secondary' }, 'Filter');
  const filters = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter instances' },
    h('div', { class: 'field' }, h('label', { for: statusId }, 'Status'), status),
    label.wrapper,
    apply,
  );
  const previous = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Previous page');
  const next = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Next page');
  const where = h('span', { class: 'muted', 'aria-live': 'polite' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of instances' }, where, previous, next);

  /** The `after` of each page shown so far: the first page has none. */
  let cursors: Array<string | undefined> = [undefined];
  let nextCursor: string | null = null;
  const query = (): InstanceQuery => ({
    limit: PAGE_SIZE,
    after: cursors[cursors.length - 1],
    status: (status.value || undefined) as InstanceQuery['status'],
    label: label.input.value || undefined,
  });

  const actions: RowActions = {
    open: (i) => openWithToken(app, i.instanceid),
    label: (i) => editLabel(app, account, i),
    usage: (i) => void showUsage(account, i.instanceid).catch((error) => notice.failure(error, 'show the usage')),
    renew: (i) => renew(app, account, i),
    resetToken: (i) => resetToken(app, account, i.instanceid),
    remove: (i) => remove(app, account, i.instanceid),
  };

  const load = async () => {
    try {
      const page = await account.list(query());
      nextCursor = page.next;
      const filtered = status.value !== '' || label.input.value !== '';
      const empty = filtered
        ? 'No instance matches these filters.'
        : 'No instances yet. Create one with “New instance”.';
      fill(body, page.instances.length ? instancesTable(page.instances, actions) : h('p', { class: 'empty' }, empty));
      where.textContent = `Page ${cursors.length}`;
    } catch (error) {
      notice.failure(error, 'list the instances');
      fill(body);
    }
  };

  // After `busy`, which enables its button again whatever the page now is.
  const settle = () => {
    previous.disabled = cursors.length === 1;
    next.disabled = nextCursor === null;
  };
  const run = (button: HTMLButtonElement) => void busy(button, load).then(settle);

  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    notice.clear();
    cursors = [undefined];
    run(apply);
  });
  next.addEventListener('click', () => {
    if (nextCursor === null) return;
    cursors.push(nextCursor);
    run(next);
  });
  previous.addEventListener('click', () => {
    if (cursors.length > 1) cursors.pop();
    run(previous);
  });
  create.addEventListener('click', () => newInstance(app, account));
  refresh.addEventListener('click', () => {
    notice.clear();
    run(refresh);
  });
  void load().then(settle);
  return h(
    'div',
    { class: 'view view-instances' },
    h('div', { class: 'view-head' }, h('h1', {}, 'Instances'), h('div', { class: 'toolbar' }, refresh, create)),
    notice.element,
    filters,
    body,
    pager,
  );
}
