import { InstanceApi, type AccountApi } from '../api/client';
import type { ListedInstance, PackageChoice } from '../api/types';
import { openDialog } from '../ui/dialog';
import { busy, field, fill, h, newId, when } from '../ui/dom';
import { expiryOf } from '../ui/expiry';
import { Notice } from '../ui/notice';
import type { Page } from './page';

/** The account's instances (docs/api.md 4.3) and what can be done to each. */
export function renderInstances(app: Page, account: AccountApi, message?: string): HTMLElement {
  const notice = new Notice();
  if (message) notice.success(message);
  const body = h('div', { class: 'table-area' }, h('p', { class: 'muted' }, 'Loading instances…'));
  const refresh = h('button', { type: 'button', class: 'button button-secondary' }, 'Refresh');
  const create = h('button', { type: 'button', class: 'button button-primary' }, 'New instance');

  const load = async () => {
    try {
      const instances = await account.list();
      fill(
        body,
        instances.length
          ? table(instances)
          : h('p', { class: 'empty' }, 'No instances yet. Create one with “New instance”.'),
      );
    } catch (error) {
      notice.failure(error, 'list the instances');
      fill(body);
    }
  };

  const table = (instances: ListedInstance[]) => {
    const now = Date.now();
    return h(
      'table',
      { class: 'table' },
      h('caption', { class: 'visually-hidden' }, 'Instances of this account'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Instance ID', 'Package', 'Status', 'Expiry', 'Webhook URL', 'Delivery', 'Actions'].map((title) =>
            h('th', { scope: 'col' }, title),
          ),
        ),
      ),
      h('tbody', {}, ...instances.map((instance) => row(instance, now))),
    );
  };

  const row = (instance: ListedInstance, now: number) => {
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
    return h(
      'tr',
      { 'data-instance': instance.instanceid },
      h('th', { scope: 'row' }, h('code', {}, instance.instanceid)),
      h('td', {}, instance.packageid),
      h(
        'td',
        {},
        h(
          'span',
          { class: `badge ${instance.status === 'active' ? 'badge-ok' : 'badge-bad'}` },
          instance.status === 'active' ? 'Active' : 'Expired',
        ),
      ),
      h(
        'td',
        {},
        h('div', {}, when(instance.expiresAt)),
        h('div', { class: `expiry expiry-${expiry.level}` }, expiry.level === 'ok' ? '' : '⚠ ', expiry.text),
      ),
      h('td', { class: 'url' }, instance.webhookUrl || h('span', { class: 'muted' }, 'None')),
      h(
        'td',
        {},
        h(
          'span',
          { class: `badge ${instance.webhookEnabled ? 'badge-ok' : 'badge-off'}` },
          instance.webhookEnabled ? 'On' : 'Off',
        ),
      ),
      h(
        'td',
        { class: 'row-actions' },
        action('Open', 'Open instance', () => openWithToken(app, instance.instanceid)),
        action('Renew', 'Renew instance', () => renew(app, account, instance)),
        action('Reset token', 'Reset token of instance', () => resetToken(app, account, instance.instanceid)),
        action('Delete', 'Delete instance', () => remove(app, account, instance.instanceid), true),
      ),
    );
  };

  create.addEventListener('click', () => newInstance(app, account));
  refresh.addEventListener('click', () => {
    notice.clear();
    void busy(refresh, load);
  });
  void load();
  return h(
    'div',
    { class: 'view view-instances' },
    h('div', { class: 'view-head' }, h('h1', {}, 'Instances'), h('div', { class: 'toolbar' }, refresh, create)),
    notice.element,
    body,
  );
}

/** A radio group of the catalogue's packages, `selected` checked. */
function packageChoice(
  packages: readonly PackageChoice[],
  selected: string,
): { element: HTMLElement; value: () => string } {
  const name = newId('package');
  const options = packages.map((p) => {
    const id = newId('package-option');
    const input = h('input', { type: 'radio', name, id, value: p.packageid, checked: p.packageid === selected });
    return {
      input,
      element: h(
        'div',
        { class: 'radio' },
        input,
        h(
          'label',
          { for: id },
          `${p.packageid}`,
          h('span', { class: 'muted' }, ` — ${p.durationDays} ${p.durationDays === 1 ? 'day' : 'days'}`),
        ),
      ),
    };
  });
  const element = h('fieldset', { class: 'fieldset' }, h('legend', {}, 'Package'), ...options.map((o) => o.element));
  return { element, value: () => options.find((o) => o.input.checked)?.input.value ?? '' };
}

function newInstance(app: Page, account: AccountApi): void {
  const packages = app.settings.packages;
  const choice = packageChoice(packages, packages[0]?.packageid ?? '');
  openDialog({
    title: 'New instance',
    content: [
      h(
        'p',
        {},
        'The instance runs for the package’s duration from now. Its token is shown once, right after it is created.',
      ),
      choice.element,
    ],
    confirm: 'Create',
    doing: 'create the instance',
    action: async () => {
      const created = await account.create(choice.value());
      app.openInstance(created.instanceid, created.token, { token: created.token, why: 'created' });
    },
  });
}

function renew(app: Page, account: AccountApi, instance: ListedInstance): void {
  const choice = packageChoice(app.settings.packages, instance.packageid);
  openDialog({
    title: `Renew instance ${instance.instanceid}`,
    content: [
      h(
        'p',
        {},
        `It now expires ${when(instance.expiresAt)}. The package’s duration is added to that date, or to now if it has passed.`,
      ),
      choice.element,
    ],
    confirm: 'Renew',
    doing: 'renew the instance',
    action: async () => {
      const renewed = await account.renew(instance.instanceid, choice.value());
      app.showInstances(
        `Renewed ${instance.instanceid} (${renewed.packageid}): it now expires ${when(renewed.expiresAt)}.`,
      );
    },
  });
}

function resetToken(app: Page, account: AccountApi, instanceid: string): void {
  openDialog({
    title: `Reset the token of ${instanceid}?`,
    content: [
      h(
        'p',
        {},
        'A new token is issued and shown once. The current token stops working at once, everywhere it is used.',
      ),
    ],
    confirm: 'Reset token',
    danger: true,
    focusCancel: true,
    doing: 'reset the token',
    action: async () => {
      const token = await account.resetToken(instanceid);
      app.openInstance(instanceid, token, { token, why: 'reset' });
    },
  });
}

function remove(app: Page, account: AccountApi, instanceid: string): void {
  openDialog({
    title: `Delete instance ${instanceid}?`,
    content: [
      h(
        'p',
        {},
        'Its token stops working, delivery stops and pending notifications are cancelled. This cannot be undone.',
      ),
    ],
    confirm: 'Delete instance',
    danger: true,
    focusCancel: true,
    doing: 'delete the instance',
    action: async () => {
      await account.remove(instanceid);
      app.showInstances(`Deleted instance ${instanceid}.`);
    },
  });
}

/** Instance tokens are shown only when issued, so opening one from the table asks for it. */
function openWithToken(app: Page, instanceid: string): void {
  const token = field(
    'Token',
    { name: 'token', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' },
    'The instance token, shown when the instance was created or its token reset.',
  );
  openDialog({
    title: `Open instance ${instanceid}`,
    content: [token.wrapper],
    confirm: 'Open instance',
    doing: 'open the instance',
    action: async () => {
      const value = token.input.value;
      await new InstanceApi(app.instanceHost, instanceid, value).status();
      app.openInstance(instanceid, value);
    },
  });
}
