import type { NotificationEvent } from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';

/** The index getWebhookLogs reads by; a rebuild from scratch makes it at its end. */
export const ATTEMPTS_BY_INSTANCE = 'attempts_by_instance';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS instances (
  instance_id     TEXT PRIMARY KEY,
  account_email   TEXT NOT NULL,
  package_id      TEXT NOT NULL,
  token_hash      TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  webhook_url     TEXT NOT NULL,
  webhook_on      INTEGER NOT NULL,
  disabled_reason TEXT,
  signing_secret  TEXT,
  revision        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS instances_by_account ON instances (account_email, created_at, instance_id);
CREATE TABLE IF NOT EXISTS delivery_attempts (
  position        INTEGER PRIMARY KEY,
  instance_id     TEXT NOT NULL,
  webhook_id      TEXT NOT NULL,
  sequence        INTEGER NOT NULL,
  at              TEXT NOT NULL,
  status          INTEGER NOT NULL,
  error           TEXT NOT NULL,
  duration_ms     INTEGER NOT NULL,
  next_attempt_at TEXT
);
CREATE INDEX IF NOT EXISTS ${ATTEMPTS_BY_INSTANCE} ON delivery_attempts (instance_id, position);
`;

/** Attempts kept per instance for getWebhookLogs, which shows at most 100 (between this and twice
 * this many are stored while live; the end of a catch-up prunes back to this many). */
export const ATTEMPTS_KEPT = 100;

/** Attempts bound per INSERT while applying a batch: one call for many rows costs less than one each. */
export const ATTEMPTS_PER_INSERT = 32;
export const ATTEMPT_COLUMNS = 9;

/** An INSERT of `rows` delivery attempts; rows stored already (same position) are left as they are. */
export function insertAttempts(rows: number): string {
  const values = Array.from({ length: rows }, () => `(${Array(ATTEMPT_COLUMNS).fill('?').join(', ')})`);
  return `INSERT OR IGNORE INTO delivery_attempts
    (position, instance_id, webhook_id, sequence, at, status, error, duration_ms, next_attempt_at) VALUES ${values.join(', ')}`;
}

/** Adds the columns of the delivery attempt an event records, if it records one, and names its instance. */
export function pushAttempt(columns: unknown[], event: RecordedEvent & NotificationEvent): string | undefined {
  if (event.type === 'DeliveryAttemptFailed') {
    const { instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt } = event.data;
    columns.push(event.position, instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt);
    return instanceId;
  }
  if (event.type === 'NotificationDelivered') {
    const { instanceId, webhookId, sequence, at, status, durationMs } = event.data;
    columns.push(event.position, instanceId, webhookId, sequence, at, status, '', durationMs, null);
    return instanceId;
  }
  return undefined;
}
