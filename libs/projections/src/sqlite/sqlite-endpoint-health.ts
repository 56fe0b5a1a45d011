import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
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

/** Instances whose health is kept in memory, as many as the instance rows cached beside it. */
const CACHED_HEALTH = 20_000;

type StoredHealth = Readonly<EndpointHealth & { position: bigint }>;

/** Health rows not yet stored, by instance: `fold` changes them until they are `committed`. */
export type HealthChanges = Map<string, EndpointHealth & { position: bigint }>;

/**
 * Each instance's endpoint health (docs/api.md section 12), from its notifications' attempts (tests
 * left out: they may go to another URL): failures in a row since the last success, when the first
 * of them was made, and when the last success was. Kept apart from the attempts, which are pruned.
 * An attempt at or below the row's position was counted already, so applying it twice is harmless.
 * Every status read asks for it, and a rebuild folds every attempt into it, so rows are cached as
 * committed (instances without attempts too).
 */
export class SqliteEndpointHealth {
  private readonly statements;
  private readonly cache = new LRUCache<string, StoredHealth>({ max: CACHED_HEALTH });

  constructor(db: Database.Database) {
    this.statements = {
      find: db.prepare<[string], HealthRow>('SELECT * FROM endpoint_health WHERE instance_id = ?'),
      upsert: db.prepare<[string, number, string | null, string | null, bigint]>(
        `INSERT INTO endpoint_health (instance_id, consecutive_failures, failing_since, last_success_at, position)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (instance_id) DO UPDATE SET consecutive_failures = excluded.consecutive_failures,
           failing_since = excluded.failing_since, last_success_at = excluded.last_success_at,
           position = excluded.position`,
      ),
    };
  }

  /** Counts the attempts of a batch into `touched`, which may hold earlier batches' (a catch-up's):
   * the rows as they will be, by instance. The caller has them written (`write`) and, once the
   * transaction has ended, hands them to `committed` or `forget`. */
  fold(events: readonly RecordedEvent[], touched: HealthChanges): void {
    for (const event of events) {
      if (!isNotificationEvent(event)) continue;
      if (event.type !== 'DeliveryAttemptFailed' && event.type !== 'NotificationDelivered') continue;
      const { instanceId, at } = event.data;
      let row = touched.get(instanceId);
      if (!row) {
        const stored = this.stored(instanceId);
        if (event.position <= stored.position) continue;
        // A copy of its own, changed in place from here on (a rebuild folds every attempt: bench e).
        row = { ...stored };
        touched.set(instanceId, row);
      } else if (event.position <= row.position) continue;
      if (event.type === 'NotificationDelivered') {
        row.consecutiveFailures = 0;
        row.failingSince = null;
        row.lastSuccessAt = at;
      } else {
        row.consecutiveFailures += 1;
        row.failingSince ??= at;
      }
      row.position = event.position;
    }
  }

  /** Stores the rows of `touched`, inside the caller's transaction. */
  write(touched: ReadonlyMap<string, StoredHealth>): void {
    for (const [instanceId, health] of touched)
      this.statements.upsert.run(
        instanceId,
        health.consecutiveFailures,
        health.failingSince,
        health.lastSuccessAt,
        health.position,
      );
  }

  /** The transaction that applied `touched` committed: the cache holds what it wrote. */
  committed(touched: ReadonlyMap<string, StoredHealth>): void {
    for (const [id, health] of touched) this.cache.set(id, Object.freeze(health));
  }

  /** The transaction that applied them did not commit: what is cached of them may be wrong. */
  forget(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) this.cache.delete(id);
  }

  health(instanceId: string): EndpointHealth {
    const { consecutiveFailures, failingSince, lastSuccessAt } = this.stored(instanceId);
    return { consecutiveFailures, failingSince, lastSuccessAt };
  }

  /** The instance's committed row (its cached copy), or no attempt yet at position 0. */
  private stored(instanceId: string): StoredHealth {
    const cached = this.cache.get(instanceId);
    if (cached) return cached;
    const row = this.statements.find.get(instanceId);
    const health: StoredHealth = Object.freeze(
      row
        ? {
            consecutiveFailures: Number(row.consecutive_failures),
            failingSince: row.failing_since,
            lastSuccessAt: row.last_success_at,
            position: row.position,
          }
        : { ...NO_ATTEMPT_YET, position: 0n },
    );
    this.cache.set(instanceId, health);
    return health;
  }
}
