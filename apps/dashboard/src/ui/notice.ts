import { ApiFailure, meaningOf, NetworkFailure } from '../api/client';
import { fill, h } from './dom';

/**
 * A place in a view where the outcome of an action is told: a success in words, or a failure with
 * each of its codes next to what the code means and what the service said about it.
 */
export class Notice {
  readonly element = h('div', { class: 'notice-area', 'aria-live': 'polite' });

  clear(): void {
    fill(this.element);
    this.element.className = 'notice-area';
  }

  success(text: string): void {
    fill(this.element, h('p', { class: 'notice notice-success', role: 'status' }, text));
  }

  info(text: string): void {
    fill(this.element, h('p', { class: 'notice notice-info', role: 'status' }, text));
  }

  /** Shows `error` in words; an error that is neither a refusal nor a network failure is a bug, and says so. */
  failure(error: unknown, doing: string): void {
    fill(this.element, failureBox(error, doing));
  }
}

/** A failure the page itself finds (a field left empty, a receiver that did not take a test). */
export class Problem extends Error {
  override name = 'Problem';
}

function failureBox(error: unknown, doing: string): HTMLElement {
  const box = h(
    'div',
    { class: 'notice notice-error', role: 'alert' },
    h('p', { class: 'notice-title' }, `Could not ${doing}.`),
  );
  if (error instanceof ApiFailure) {
    const list = h('ul', { class: 'failure-list' });
    for (const code of error.codes) {
      const meaning = meaningOf(code);
      // The details say which field and how, unless the code's meaning already says all of it.
      const said = error.details
        .filter((d) => d.code === code && !meaning.includes(d.message))
        .map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
      list.append(
        h(
          'li',
          {},
          h('span', { class: 'code' }, code),
          ' ',
          h('span', { class: 'meaning' }, meaning),
          said.length ? h('span', { class: 'said' }, ` (${[...new Set(said)].join('; ')})`) : null,
        ),
      );
    }
    box.append(list);
  } else if (error instanceof Problem) {
    box.append(h('p', {}, `${error.message[0].toUpperCase()}${error.message.slice(1)}.`));
  } else if (error instanceof NetworkFailure) {
    box.append(h('p', {}, `Network problem: ${error.message}.`));
  } else {
    box.append(h('p', {}, `Unexpected error in the page: ${error instanceof Error ? error.message : String(error)}.`));
  }
  return box;
}
