/** A tiny element builder: text always goes in as text nodes, never as markup. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

let ids = 0;
/** A unique element id, to tie a label or a description to its field. */
export const newId = (prefix: string): string => `${prefix}-${++ids}`;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'class') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

function append(parent: Element, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A labelled input: the label's text is the field's accessible name. */
export function field(
  label: string,
  input: Attrs & { name: string },
  hint?: string,
): { wrapper: HTMLDivElement; input: HTMLInputElement } {
  const id = newId(input.name);
  const hintId = hint ? `${id}-hint` : undefined;
  const element = h('input', { id, 'aria-describedby': hintId, ...input });
  const wrapper = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    element,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
  );
  return { wrapper, input: element };
}

/** Runs `work` with `button` disabled and marked busy, so a slow call cannot be sent twice. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

/** A "Copy" button for `source`'s value, and a live line that says it was copied. Where the page is
 * not a secure context (the clipboard API needs one), it selects the text and copies it the old way. */
export function copyControl(source: HTMLInputElement, label = 'Copy'): HTMLSpanElement {
  const status = h('span', { class: 'copy-status', role: 'status' });
  const button = h('button', { type: 'button', class: 'button button-secondary' }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.value);
      fill(status, 'Copied');
    } catch {
      source.select();
      fill(status, document.execCommand('copy') ? 'Copied' : 'Selected: press Ctrl+C to copy');
    }
  });
  return h('span', { class: 'copy' }, button, status);
}

/** Formats a timestamp of the API (ISO 8601, UTC) for people, in UTC so that it reads the same everywhere. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
