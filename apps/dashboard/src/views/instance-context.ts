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
