import { busy, h, newId } from './dom';
import { Notice } from './notice';

export interface DialogOptions {
  title: string;
  content: Node[];
  /** The confirming button's name ("Create", "Delete instance", ...). */
  confirm: string;
  danger?: boolean;
  /** Put the first focus on Cancel rather than on the first field: for actions that cannot be undone. */
  focusCancel?: boolean;
  /** What the confirming button does, in words for a failure ("create the instance"). */
  doing: string;
  /** Runs on confirm; the dialog closes when it resolves and shows the failure when it throws. */
  action: () => Promise<void>;
}

/** A modal dialog (the browser's own `<dialog>`: focus stays inside, Escape cancels, and focus goes
 * back to where it was when it closes). */
export function openDialog(options: DialogOptions): HTMLDialogElement {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = newId('dialog-title');
  const notice = new Notice();
  const cancel = h(
    'button',
    { type: 'button', class: 'button button-secondary', autofocus: options.focusCancel },
    'Cancel',
  );
  const confirm = h(
    'button',
    { type: 'submit', class: `button ${options.danger ? 'button-danger' : 'button-primary'}` },
    options.confirm,
  );
  const form = h(
    'form',
    { class: 'dialog-form', novalidate: true },
    h('h2', { id: titleId }, options.title),
    ...options.content,
    notice.element,
    h('div', { class: 'actions' }, cancel, confirm),
  );
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, form);
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(confirm, async () => {
      try {
        await options.action();
        dialog.close();
      } catch (error) {
        notice.failure(error, options.doing);
      }
    });
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
