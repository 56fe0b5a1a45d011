import type { CreatedInstance } from '@gw/domain-instances';

/** One instance as the read models keep it: the domain's own state plus the stream revision applied
 * last. `tokenHash` is there to authenticate queries; it is never part of an answer. */
export type InstanceRow = Omit<CreatedInstance, 'status'> & { revision: bigint };

/** One delivery attempt as getWebhookLogs shows it (CONTRACT 4.8). */
export interface DeliveryAttemptRow {
  at: string;
  sequence: number;
  webhookId: string;
  status: number;
  error: string;
  durationMs: number;
  nextAttemptAt: string | null;
}
