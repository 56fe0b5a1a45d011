import { InstanceApi, type AccountApi } from '../api/client';
import type { ListedInstance, PackageChoice } from '../api/types';
import { openDialog } from '../ui/dialog';
import { field, h, newId, when } from '../ui/dom';
import { usageChart } from '../ui/usage-chart';
import type { Page } from './page';

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

export function newInstance(app: Page, account: AccountApi): void {
  const packages = app.settings.packages;
  const choice = packageChoice(packages, packages[0]?.packageid ?? '');
  const label = labelField('');
  openDialog({
    title: 'New instance',
    content: [
      h(
        'p',
        {},
        'The instance runs for the package’s duration from now. Its token is shown once, right after it is created.',
      ),
      choice.element,
      label.wrapper,
    ],
    confirm: 'Create',
    doing: 'create the instance',
    action: async () => {
      const created = await account.create(choice.value(), label.input.value);
      app.openInstance(created.instanceid, created.token, { token: created.token, why: 'created' });
    },
  });
}

export function renew(app: Page, account: AccountApi, instance: ListedInstance): void {
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

export function resetToken(app: Page, account: AccountApi, instanceid: string): void {
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

export function remove(app: Page, account: AccountApi, instanceid: string): void {
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
export function openWithToken(app: Page, instanceid: string): void {
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

/** The label input (docs/api.md 13.1): optional, at most 64 characters. */
function labelField(value: string) {
  return field(
    'Label',
    { name: 'label', type: 'text', autocomplete: 'off', maxlength: 64, value },
    'Optional, up to 64 characters; it travels in every notification of the instance. Empty removes it.',
  );
}

export function editLabel(app: Page, account: AccountApi, instance: ListedInstance): void {
  const label = labelField(instance.label ?? '');
  openDialog({
    title: `Label of ${instance.instanceid}`,
    content: [label.wrapper],
    confirm: 'Save label',
    doing: 'set the label',
    action: async () => {
      const value = label.input.value;
      await account.setLabel(instance.instanceid, value);
      app.showInstances(
        value ? `Labelled ${instance.instanceid} “${value}”.` : `Removed the label of ${instance.instanceid}.`,
      );
    },
  });
}

/** The instance's last 30 days (docs/api.md 13.3): notifications delivered and attempts failed per
 * day, drawn by the page from getUsage. */
export async function showUsage(account: AccountApi, instanceid: string): Promise<void> {
  const answer = await account.usage(instanceid);
  const swatch = (kind: string, text: string) =>
    h('span', {}, h('span', { class: `usage-swatch usage-swatch-${kind}` }), text);
  const messages = answer.usage.reduce((sum, u) => sum + u.messages, 0);
  openDialog({
    title: `Usage of ${instanceid}`,
    content: [
      h('p', {}, `The last 30 days, ${answer.from} to ${answer.to} (UTC). Messages recorded: ${messages}.`),
      usageChart(answer.from, answer.to, answer.usage),
      h('p', { class: 'usage-legend' }, swatch('delivered', 'Delivered'), swatch('failed', 'Failed attempts')),
    ],
    confirm: 'Close',
    doing: 'close',
    action: () => Promise.resolve(),
  });
}
