import type { InstanceApi } from '../api/client';
import type { WebhookStatus } from '../api/types';

/** What the instance's panels share: its API, and a way to show its state again after a change. */
export interface InstanceContext {
  api: InstanceApi;
  /** Shows a status answer (from getWebhookStatus, webhook or a rotation) in every panel. */
  update(status: WebhookStatus): void;
  onUpdate(listener: (status: WebhookStatus) => void): void;
  /** Reloads the delivery log (after a test). */
  refreshLog(): void;
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLButtonElement;

/**
 * Keeps `controls` disabled until the instance's status first arrives: the status fills them in, so
 * anything typed or ticked before it came would be silently replaced by what it shows.
 */
export function enabledOnceLoaded(context: InstanceContext, ...controls: Control[]): void {
  for (const control of controls) control.disabled = true;
  let loaded = false;
  context.onUpdate(() => {
    if (loaded) return;
    loaded = true;
    for (const control of controls) control.disabled = false;
  });
}
