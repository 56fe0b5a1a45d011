import type { SignatureScheme, WebhookStatus } from '../api/types';
import { busy, copyControl, fill, h, newId, when } from '../ui/dom';
import { Notice, Problem } from '../ui/notice';
import { enabledOnceLoaded, type InstanceContext } from './instance-context';

const SCHEME_LABELS: Record<SignatureScheme, string> = {
  hmac: 'HMAC with the signing secret (v1)',
  ed25519: 'Ed25519 with a public key (v1a)',
};

function panel(title: string, content: Node[]): HTMLElement {
  const id = newId('panel');
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), ...content);
}

/** The URL and kinds in force, which a change of options sends again (webhook takes them together). */
function registered(status: WebhookStatus | undefined): WebhookStatus {
  if (!status?.webhookUrl) throw new Problem('register a webhook URL first: the options go with it');
  return status;
}

/**
 * The receiver's options (docs/api.md section 12): its own headers, shown by name only, with a way to
 * replace or remove them all; the signature scheme; the Ed25519 public key with a copy button.
 */
export function receiverOptionsPanel(context: InstanceContext): HTMLElement {
  const notice = new Notice();
  let current: WebhookStatus | undefined;

  const names = h('ul', { class: 'header-names', 'aria-label': 'Header names' });
  const headersId = newId('headers');
  const headers = h('textarea', {
    id: headersId,
    name: 'webhookHeaders',
    rows: 3,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '{"Authorization": "Bearer …"}',
  });
  const replace = h('button', { type: 'button', class: 'button button-secondary' }, 'Replace headers');
  const remove = h('button', { type: 'button', class: 'button button-secondary' }, 'Remove all headers');

  const radios = (['hmac', 'ed25519'] as const).map((scheme) => {
    const id = newId(`scheme-${scheme}`);
    const input = h('input', { type: 'radio', id, name: 'signatureScheme', value: scheme });
    return {
      scheme,
      input,
      element: h('div', { class: 'radio' }, input, h('label', { for: id }, SCHEME_LABELS[scheme])),
    };
  });
  const useScheme = h('button', { type: 'button', class: 'button button-secondary' }, 'Use this scheme');
  const keyId = newId('public-key');
  const key = h('input', { id: keyId, class: 'secret', type: 'text', readonly: true, spellcheck: 'false' });
  const keyField = h(
    'div',
    { class: 'field field-inline' },
    h('label', { for: keyId }, 'Public key'),
    key,
    copyControl(key),
  );

  const keySlot = h('div', {});

  enabledOnceLoaded(context, headers, replace, remove, ...radios.map((r) => r.input), useScheme);
  context.onUpdate((status) => {
    current = status;
    // The values leave the page only in the request that set them.
    headers.value = '';
    const listed = Object.keys(status.webhookHeaders ?? {});
    fill(
      names,
      ...(listed.length
        ? listed.map((name) => h('li', {}, h('code', {}, name), ': ***'))
        : [h('li', { class: 'muted' }, 'No headers of your own.')]),
    );
    for (const radio of radios) radio.input.checked = (status.signatureScheme ?? 'hmac') === radio.scheme;
    key.value = status.signingPublicKey ?? '';
    // Only once there is a key pair (the first choice of ed25519 makes it).
    fill(keySlot, status.signingPublicKey ? keyField : null);
  });

  const change = (button: HTMLButtonElement, options: () => Record<string, string>, done: string, what: string) =>
    button.addEventListener(
      'click',
      () =>
        void busy(button, async () => {
          try {
            const { webhookUrl, events } = registered(current);
            await context.api.setOptions(webhookUrl, events, options());
            context.update(await context.api.status());
            notice.success(done);
          } catch (error) {
            notice.failure(error, what);
          }
        }),
    );
  change(
    replace,
    () => {
      if (headers.value.trim() === '') throw new Problem('enter the headers as a JSON object, or remove them all');
      return { webhookHeaders: headers.value };
    },
    'Headers replaced; their values are kept sealed and never shown again.',
    'replace the headers',
  );
  change(remove, () => ({ webhookHeaders: '{}' }), 'Headers removed.', 'remove the headers');
  change(
    useScheme,
    () => ({ signatureScheme: radios.find((r) => r.input.checked)?.scheme ?? 'hmac' }),
    'Signature scheme saved; it applies from now on.',
    'change the signature scheme',
  );

  return panel('Receiver options', [
    h('p', { class: 'hint' }, 'Headers of your own go on every notification and test, exactly as given.'),
    names,
    h('div', { class: 'field' }, h('label', { for: headersId }, 'New headers (JSON object)'), headers),
    h('div', { class: 'actions' }, remove, replace),
    h('fieldset', { class: 'fieldset' }, h('legend', {}, 'Signature scheme'), ...radios.map((r) => r.element)),
    keySlot,
    notice.element,
    h('div', { class: 'actions' }, useScheme),
  ]);
}

/** The endpoint's health (section 12), in one line on the instance view. */
export function healthLine(context: InstanceContext): HTMLElement {
  const line = h('p', { class: 'state health', 'aria-label': 'Endpoint health' });
  context.onUpdate(({ health, disabledReason }) => {
    if (!health) return fill(line);
    const lastSuccess = `last success ${health.lastSuccessAt ? when(health.lastSuccessAt) : 'never'}`;
    fill(
      line,
      health.failingSince
        ? `Receiver failing since ${when(health.failingSince)} (${health.consecutiveFailures} failed attempts in a row); ${lastSuccess}.`
        : `Receiver healthy; ${lastSuccess}.`,
      disabledReason === 'failing' ? ' Delivery was switched off because it kept failing.' : '',
    );
  });
  return line;
}
