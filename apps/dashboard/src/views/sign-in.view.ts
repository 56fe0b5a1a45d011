import { AccountApi, InstanceApi } from '../api/client';
import { busy, field, h } from '../ui/dom';
import { Notice } from '../ui/notice';
import type { Page } from './page';

/** Two ways in: an account (e-mail and API key) or one instance (its id and token). */
export function renderSignIn(app: Page, instanceid: string): HTMLElement {
  return h(
    'div',
    { class: 'view view-sign-in' },
    h('h1', {}, 'Dashboard'),
    h('p', { class: 'lead' }, 'Manage your instances, their webhooks and their notifications.'),
    h('div', { class: 'cards' }, accountCard(app), instanceCard(app, instanceid)),
  );
}

function accountCard(app: Page): HTMLElement {
  const notice = new Notice();
  // autocomplete="off" keeps the fields out of the browser's form history. Browsers ignore it on
  // password fields, so a password manager may still offer to save the key; the page stores nothing.
  const email = field('E-mail', {
    name: 'email',
    type: 'email',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const apikey = field('API key', {
    name: 'apikey',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'account-title', novalidate: true },
    h('h2', { id: 'account-title' }, 'Account'),
    h('p', { class: 'hint' }, 'Your instances, with create, renew, delete and token resets.'),
    email.wrapper,
    apikey.wrapper,
    notice.element,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(submit, async () => {
      const account = new AccountApi(email.input.value.trim(), apikey.input.value, window.location.origin);
      try {
        // listInstances checks the credentials and is what the next view shows first.
        await account.list({ limit: 1 });
        app.signInToAccount(account);
      } catch (error) {
        notice.failure(error, 'sign in');
      }
    });
  });
  return form;
}

function instanceCard(app: Page, instanceid: string): HTMLElement {
  const notice = new Notice();
  const id = field('Instance ID', {
    name: 'instanceid',
    type: 'text',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
    value: instanceid,
  });
  const token = field('Token', {
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Open instance');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'instance-title', novalidate: true },
    h('h2', { id: 'instance-title' }, 'One instance'),
    h('p', { class: 'hint' }, 'Its webhook, signing secret, delivery log and notifications.'),
    id.wrapper,
    token.wrapper,
    notice.element,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(submit, async () => {
      const api = new InstanceApi(app.instanceHost, id.input.value.trim(), token.input.value);
      try {
        await api.status();
        app.openInstance(api.instanceid, token.input.value);
      } catch (error) {
        notice.failure(error, 'open the instance');
      }
    });
  });
  if (instanceid) queueMicrotask(() => token.input.focus());
  return form;
}
