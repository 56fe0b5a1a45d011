import { KINDS, type Kind } from '../api/types';
import { busy, copyControl, field, fill, h, newId, when } from '../ui/dom';
import { Notice, Problem } from '../ui/notice';
import { enabledOnceLoaded, type InstanceContext } from './instance-context';

const KIND_LABELS: Record<Kind, string> = {
  messages: 'Incoming messages',
  ownMessages: 'Own messages (sent from the instance)',
  acks: 'Acks (delivery and read receipts)',
  instance: 'Instance notices (expiring, renewed)',
  state: 'Connection state changes',
};

function panel(title: string, content: Node[], tall = false): HTMLElement {
  const id = newId('panel');
  return h(
    'section',
    { class: tall ? 'panel panel-tall' : 'panel', 'aria-labelledby': id },
    h('h2', { id }, title),
    ...content,
  );
}

/** The webhook URL and the notification kinds (docs/api.md 4.4, 8.4): set, or clear to switch delivery off. */
export function webhookPanel(context: InstanceContext): HTMLElement {
  const notice = new Notice();
  const url = field(
    'Webhook URL',
    {
      name: 'webhookUrl',
      type: 'url',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'https://hooks.example.com/wa',
    },
    'An absolute https URL on a public host.',
  );
  const boxes = KINDS.map((kind) => {
    const id = newId(`kind-${kind}`);
    const input = h('input', { type: 'checkbox', id, name: 'events', value: kind });
    return {
      kind,
      input,
      element: h(
        'div',
        { class: 'checkbox' },
        input,
        h('label', { for: id }, KIND_LABELS[kind], ' ', h('code', {}, kind)),
      ),
    };
  });
  const state = h('p', { class: 'state' });
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Save webhook');
  const clear = h('button', { type: 'button', class: 'button button-secondary' }, 'Switch delivery off');
  const form = h(
    'form',
    { novalidate: true },
    state,
    url.wrapper,
    h('fieldset', { class: 'fieldset' }, h('legend', {}, 'Event kinds'), ...boxes.map((b) => b.element)),
    notice.element,
    h('div', { class: 'actions' }, clear, save),
  );

  enabledOnceLoaded(context, url.input, ...boxes.map((b) => b.input), save, clear);
  context.onUpdate((status) => {
    url.input.value = status.webhookUrl;
    for (const box of boxes) box.input.checked = status.events.includes(box.kind);
    fill(
      state,
      status.webhookUrl
        ? `Delivery is ${status.enabled ? 'on' : 'off'}: notifications go to `
        : 'Delivery is off: no webhook URL is registered.',
      status.webhookUrl ? h('span', { class: 'url' }, status.webhookUrl) : null,
      status.disabledReason ? ` (switched off: ${status.disabledReason})` : '',
    );
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const events = boxes.filter((b) => b.input.checked).map((b) => b.kind);
    void busy(save, async () => {
      try {
        if (url.input.value.trim() === '') throw new Problem('enter a webhook URL, or use “Switch delivery off”');
        if (events.length === 0) throw new Problem('choose at least one event kind');
        await context.api.setWebhook(url.input.value.trim(), events);
        context.update(await context.api.status());
        notice.success('Webhook saved.');
      } catch (error) {
        notice.failure(error, 'save the webhook');
      }
    });
  });
  clear.addEventListener(
    'click',
    () =>
      void busy(clear, async () => {
        try {
          await context.api.clearWebhook();
          context.update(await context.api.status());
          notice.success('Delivery switched off; the webhook URL is no longer registered.');
        } catch (error) {
          notice.failure(error, 'switch delivery off');
        }
      }),
  );
  return panel('Webhook', [form], true);
}

/** The signing secret (section 6) and its rotation (8.5). */
export function secretPanel(context: InstanceContext): HTMLElement {
  const notice = new Notice();
  const id = newId('secret');
  const input = h('input', {
    id,
    class: 'secret',
    type: 'password',
    readonly: true,
    spellcheck: 'false',
    autocomplete: 'off',
    value: '',
  });
  const show = h('button', { type: 'button', class: 'button button-secondary', 'aria-pressed': 'false' }, 'Show');
  const rotate = h('button', { type: 'button', class: 'button button-secondary' }, 'Rotate secret');
  const none = h('p', { class: 'muted' });
  show.addEventListener('click', () => {
    const shown = input.type === 'text';
    input.type = shown ? 'password' : 'text';
    show.setAttribute('aria-pressed', String(!shown));
    fill(show, shown ? 'Show' : 'Hide');
  });
  // A rotation's answer must not be overtaken by the first status, which shows the secret before it.
  enabledOnceLoaded(context, rotate);
  context.onUpdate((status) => {
    input.value = status.signingSecret ?? '';
    fill(
      none,
      status.signingSecret
        ? ''
        : 'No signing secret yet: the first webhook URL creates one, and so does “Rotate secret”.',
    );
  });
  rotate.addEventListener(
    'click',
    () =>
      void busy(rotate, async () => {
        try {
          const rotation = await context.api.rotateSecret();
          context.update(await context.api.status());
          input.value = rotation.signingSecret;
          notice.success(
            rotation.previousValidUntil
              ? `New secret in use. The previous one also signs until ${when(rotation.previousValidUntil)}.`
              : 'New secret in use (the instance had none before).',
          );
        } catch (error) {
          notice.failure(error, 'rotate the signing secret');
        }
      }),
  );
  return panel('Signing secret', [
    h(
      'p',
      { class: 'hint' },
      'Receivers check each notification’s webhook-signature header with it (Standard Webhooks).',
    ),
    h(
      'div',
      { class: 'field field-inline' },
      h('label', { for: id }, 'Signing secret'),
      input,
      show,
      copyControl(input),
    ),
    none,
    notice.element,
    h('div', { class: 'actions' }, rotate),
  ]);
}

/** One signed test notification, now (8.6), to the registered URL or another one. */
export function testPanel(context: InstanceContext): HTMLElement {
  const notice = new Notice();
  const url = field(
    'Test URL (optional)',
    { name: 'testUrl', type: 'url', autocomplete: 'off', spellcheck: 'false' },
    'Leave empty to send to the registered webhook URL. Another URL is tested, not registered.',
  );
  const send = h('button', { type: 'submit', class: 'button button-primary' }, 'Send test');
  const form = h('form', { novalidate: true }, url.wrapper, notice.element, h('div', { class: 'actions' }, send));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(send, async () => {
      try {
        const result = await context.api.test(url.input.value.trim());
        const answer = result.status ? `HTTP ${result.status}` : result.error;
        if (result.delivered) notice.success(`Delivered: the receiver answered ${answer} in ${result.durationMs} ms.`);
        else notice.failure(new Problem(`not delivered: ${answer} after ${result.durationMs} ms`), 'deliver the test');
        context.refreshLog();
      } catch (error) {
        notice.failure(error, 'send the test');
      }
    });
  });
  return panel('Send a test', [form]);
}
