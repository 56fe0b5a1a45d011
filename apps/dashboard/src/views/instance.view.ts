import type { InstanceApi } from '../api/client';
import type { WebhookStatus } from '../api/types';
import { copyControl, fill, h, newId } from '../ui/dom';
import { Notice } from '../ui/notice';
import { deliveryLogPanel, notificationsPanel } from './deliveries.panel';
import type { InstanceContext } from './instance-context';
import type { IssuedToken, Page } from './page';
import { healthLine, receiverOptionsPanel } from './receiver-options.panel';
import { secretPanel, testPanel, webhookPanel } from './webhook.panel';

/** One instance, opened with its id and token (docs/api.md 4.4 to 4.8, 8.5 to 8.8). */
export function renderInstance(app: Page, api: InstanceApi, issued?: IssuedToken): HTMLElement {
  const listeners: Array<(status: WebhookStatus) => void> = [];
  const logListeners: Array<() => void> = [];
  const context: InstanceContext = {
    api,
    update: (status) => listeners.forEach((listener) => listener(status)),
    onUpdate: (listener) => listeners.push(listener),
    refreshLog: () => logListeners.forEach((listener) => listener()),
  };
  const notice = new Notice();
  const badges = h('div', { class: 'badges' });
  context.onUpdate((status) =>
    fill(
      badges,
      status.instanceStatus
        ? h(
            'span',
            { class: `badge ${status.instanceStatus === 'active' ? 'badge-ok' : 'badge-bad'}` },
            status.instanceStatus === 'active' ? 'Active' : 'Expired',
          )
        : null,
      h(
        'span',
        { class: `badge ${status.enabled ? 'badge-ok' : 'badge-off'}` },
        status.enabled ? 'Delivery on' : 'Delivery off',
      ),
    ),
  );

  const back = app.account
    ? h(
        'button',
        { type: 'button', class: 'button button-secondary button-small', onclick: () => app.showInstances() },
        '← Instances',
      )
    : h(
        'button',
        { type: 'button', class: 'button button-secondary button-small', onclick: () => app.showSignIn() },
        'Close instance',
      );

  const log = deliveryLogPanel(context);
  logListeners.push(log.refresh);
  const view = h(
    'div',
    { class: 'view view-instance' },
    h(
      'div',
      { class: 'view-head' },
      h('div', {}, back, h('h1', {}, 'Instance ', h('code', {}, api.instanceid))),
      badges,
    ),
    healthLine(context),
    issued ? tokenBanner(issued) : null,
    notice.element,
    h(
      'div',
      { class: 'panels' },
      webhookPanel(context),
      secretPanel(context),
      receiverOptionsPanel(context),
      testPanel(context),
      log.element,
      notificationsPanel(context),
    ),
  );
  api.status().then(context.update, (error: unknown) => notice.failure(error, 'read the instance’s webhook status'));
  return view;
}

/** The token newInstance or resetInstanceToken just answered: shown this once, with a copy button. */
function tokenBanner(issued: IssuedToken): HTMLElement {
  const id = newId('new-token');
  const input = h('input', {
    id,
    class: 'secret',
    type: 'text',
    readonly: true,
    spellcheck: 'false',
    autocomplete: 'off',
  });
  // The property, not the attribute: the token stays out of the markup (outerHTML, DOM snapshots).
  input.value = issued.token;
  return h(
    'section',
    { class: 'banner', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, issued.why === 'created' ? 'Instance created' : 'Token reset'),
    h(
      'p',
      {},
      'This is the instance’s token. It is shown only now: copy it and keep it safe.',
      issued.why === 'reset' ? ' The previous token no longer works.' : '',
    ),
    h('div', { class: 'field field-inline' }, h('label', { for: id }, 'New token'), input, copyControl(input)),
  );
}
