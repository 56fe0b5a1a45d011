import type Database from 'better-sqlite3';
import { isNotificationEvent } from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';
import type { EndpointHealth } from '../webhook-logs.read-model';

export const ENDPOINT_HEALTH_SCHEMA = `
CREATE TABLE IF NOT EXISTS endpoint_health (
  instance_id          TEXT PRIMARY KEY,
  consecutive_failures INTEGER NOT NULL,
  failing_since        TEXT,
  last_success_at      TEXT,
  position             INTEGER NOT NULL
);
`;

interface HealthRow {
  consecutive_failures: bigint;
  failing_since: string | null;
  last_success_at: string | null;
  position: bigint;
}

const NO_ATTEMPT_YET: EndpointHealth = { consecutiveFailures: 0, failingSince: null, lastSuccessAt: null };

/**
 * Each instance's endpoint health (docs/api.md section 12), from its notifications' attempts (tests
 * left out: they may go to another URL): failures in a row since the last success, when the first
 * of them was made, and when the last success was. Kept apart from the attempts, which are pruned.
 * An attempt at or below the row's position was counted already, so applying it twice is harmless.
 */
export class SqliteEndpointHealth {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      find: db.prepare<[string], HealthRow>('SELECT * FROM endpoint_health WHERE instance_id = ?'),
      upsert: db.prepare(
        `INSERT INTO endpoint_health (instance_id, consecutive_failures, failing_since, last_success_at, position)
         VALUES (@instanceId, @consecutiveFailures, @failingSince, @lastSuccessAt, @position)
         ON CONFLICT (instance_id) DO UPDATE SET consecutive_failures = excluded.consecutive_failures,
           failing_since = excluded.failing_since, last_success_at = excluded.last_success_at,
           position = excluded.position`,
      ),
    };
  }

  /** Counts the attempts of a batch, inside the caller's transaction. */
  apply(events: readonly RecordedEvent[]): void {
    const touched = new Map<string, EndpointHealth & { position: bigint }>();
    for (const event of events) {
      if (!isNotificationEvent(event)) continue;
      if (event.type !== 'DeliveryAttemptFailed' && event.type !== 'NotificationDelivered') continue;
      const { instanceId, at } = event.data;
      const current = touched.get(instanceId) ?? this.stored(instanceId);
      if (current && event.position <= current.position) continue;
      const before = current ?? { ...NO_ATTEMPT_YET, position: 0n };
      touched.set(
        instanceId,
        event.type === 'NotificationDelivered'
          ? { consecutiveFailures: 0, failingSince: null, lastSuccessAt: at, position: event.position }
          : {
              consecutiveFailures: before.consecutiveFailures + 1,
              failingSince: before.failingSince ?? at,
              lastSuccessAt: before.lastSuccessAt,
              position: event.position,
            },
      );
    }
    for (const [instanceId, health] of touched) this.statements.upsert.run({ instanceId, ...health });
  }

  health(instanceId: string): EndpointHealth {
    const { position: _position, ...health } = this.stored(instanceId) ?? { ...NO_ATTEMPT_YET, position: 0n };
    return health;
  }

  private stored(instanceId: string): (EndpointHealth & { position: bigint }) | undefined {
    const row = this.statements.find.get(instanceId);
    return (
      row && {
        consecutiveFailures: Number(row.consecutive_failures),
        failingSince: row.failing_since,
        lastSuccessAt: row.last_success_at,
        position: row.position,
      }
    );
  }
}
