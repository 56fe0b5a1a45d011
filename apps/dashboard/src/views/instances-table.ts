import type { ListedInstance } from '../api/types';
import { h, when } from '../ui/dom';
import { expiryOf } from '../ui/expiry';

/** What a row's buttons do. */
export interface RowActions {
  open(instance: ListedInstance): void;
  label(instance: ListedInstance): void;
  usage(instance: ListedInstance): void;
  renew(instance: ListedInstance): void;
  resetToken(instance: ListedInstance): void;
  remove(instance: ListedInstance): void;
}

const STATE_NAMES: Record<string, string> = {
  starting: 'Starting',
  qr: 'Waiting for QR scan',
  authorized: 'Authorized',
  notAuthorized: 'Not authorized',
  blocked: 'Blocked',
  sleep: 'Sleeping',
};

/** One page of the account's instances as a table (docs/api.md 4.3, 13.1). */
export function instancesTable(instances: readonly ListedInstance[], actions: RowActions): HTMLTableElement {
  const now = Date.now();
  const titles = ['Instance ID', 'Label', 'Package', 'Status', 'State', 'Expiry', 'Webhook URL', 'Delivery', 'Actions'];
  return h(
    'table',
    { class: 'table' },
    h('caption', { class: 'visually-hidden' }, 'Instances of this account'),
    h('thead', {}, h('tr', {}, ...titles.map((title) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, ...instances.map((instance) => row(instance, now, actions))),
  );
}

function row(instance: ListedInstance, now: number, actions: RowActions): HTMLTableRowElement {
  const expiry = expiryOf(instance.expiresAt, now);
  // The visible text is short; the accessible name also says which instance, and starts with that text.
  const action = (name: string, label: string, onclick: () => void, danger = false) =>
    h(
      'button',
      {
        type: 'button',
        class: `button button-small ${danger ? 'button-danger-outline' : 'button-secondary'}`,
        'aria-label': `${label} ${instance.instanceid}`,
        onclick,
      },
      name,
    );
  const badge = (ok: boolean, text: string, off = 'badge-bad') =>
    h('span', { class: `badge ${ok ? 'badge-ok' : off}` }, text);
  return h(
    'tr',
    { 'data-instance': instance.instanceid },
    h('th', { scope: 'row' }, h('code', {}, instance.instanceid)),
    h('td', { class: 'label' }, instance.label ?? h('span', { class: 'muted' }, '—')),
    h('td', {}, instance.packageid),
    h('td', {}, badge(instance.status === 'active', instance.status === 'active' ? 'Active' : 'Expired')),
    h(
      'td',
      { class: 'state' },
      instance.state === null
        ? h('span', { class: 'muted' }, 'Not reported')
        : badge(instance.state === 'authorized', STATE_NAMES[instance.state] ?? instance.state, 'badge-off'),
    ),
    h(
      'td',
      {},
      h('div', {}, when(instance.expiresAt)),
      h('div', { class: `expiry expiry-${expiry.level}` }, expiry.level === 'ok' ? '' : '⚠ ', expiry.text),
    ),
    h('td', { class: 'url' }, instance.webhookUrl || h('span', { class: 'muted' }, 'None')),
    h('td', {}, badge(instance.webhookEnabled, instance.webhookEnabled ? 'On' : 'Off', 'badge-off')),
    h(
      'td',
      { class: 'row-actions' },
      action('Open', 'Open instance', () => actions.open(instance)),
      action('Label', 'Label of instance', () => actions.label(instance)),
      action('Usage', 'Usage of instance', () => actions.usage(instance)),
      action('Renew', 'Renew instance', () => actions.renew(instance)),
      action('Reset token', 'Reset token of instance', () => actions.resetToken(instance)),
      action('Delete', 'Delete instance', () => actions.remove(instance), true),
    ),
  );
}
