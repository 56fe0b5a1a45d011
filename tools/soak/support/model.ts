import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';
import type { FlakyReceiver } from './flaky-receiver';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Package durations from the catalogue the API runs with (PACKAGES_FILE is not set). */
export const DURATION_MS: Record<string, number> = Object.fromEntries(
  (
    JSON.parse(readFileSync(join(ROOT, 'config/packages.json'), 'utf8')) as Array<{
      packageid: string;
      durationDays: number;
    }>
  ).map((p) => [p.packageid, p.durationDays * DAY_MS]),
);
export const PACKAGES = Object.keys(DURATION_MS);
export const ACK_STATUSES = ['sent', 'delivered', 'read'];

export type Operation =
  | 'ingestMessage'
  | 'ingestAck'
  | 'getWebhookStatus'
  | 'webhook'
  | 'renewInstance'
  | 'getWebhookLogs'
  | 'listInstances'
  | 'newInstance';

/** Share of each operation in the mix. Creations are few so that listInstances answers, which
 * grow with the account, stay small (a few hundred instances per account after 10 minutes). */
export const MIX: Record<Operation, number> = {
  ingestMessage: 30,
  ingestAck: 12,
  getWebhookStatus: 16,
  webhook: 14,
  renewInstance: 10,
  getWebhookLogs: 14,
  listInstances: 2,
  newInstance: 2,
};

export interface Account {
  email: string;
  apikey: string;
}

/** What the client knows of an instance from acknowledged answers. Operations that change or read
 * its state run one at a time per instance (`busy`), so "the last acknowledged" is well defined. */
export interface Tracked {
  account: Account;
  instanceid: string;
  token: string;
  packageid: string;
  expiresAt: string;
  webhookUrl: string;
  busy: boolean;
  /** Changes (renewals, webhook calls) started so far: a read that saw this number change while it
   * was in flight may show the state before or after the change. */
  writes: number;
  /** Receives ingest traffic; its webhook stays registered all along (docs/api.md section 6: only events
   * recorded while delivery is on are notified, so every accepted one must arrive). */
  ingest: boolean;
  /** Recorded messages that can still be acked (each status once: acks are idempotent by id and status). */
  ackable: Array<{ id: string; acked: number }>;
}

export interface OperationStats {
  sent: number;
  ok: number;
  refused: number;
  serverErrors: number;
  noAnswer: number;
  /** Sum and maximum of the answer times, in ms (reported, never asserted). */
  totalMs: number;
  maxMs: number;
}

export interface Target {
  accountUrl: string;
  apiUrl: string;
  internalUrl: string;
  internalToken: string;
  receiver: FlakyReceiver;
}

/** The fields of success answers (docs/api.md 4.1 to 4.8) that the soak reads. */
export interface Shown {
  instanceid?: string;
  token?: string;
  packageid?: string;
  createdAt?: string;
  expiresAt?: string;
  webhookUrl?: string;
  enabled?: boolean;
  webhookEnabled?: boolean;
  instanceStatus?: string;
  attempts?: Array<{ status?: number }>;
  instances?: Shown[];
}
