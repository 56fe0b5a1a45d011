import Database from 'better-sqlite3';
import type { RecordedEvent } from '@gw/event-store';
import { preparePrivateDatabaseFile, startWalCheckpointer, type WalCheckpointer } from '@gw/event-store/sqlite';
import type { InstanceRow, InstancesPage } from '../instances.read-model';
import type { ProjectionTarget } from '../projection-runner';
import {
  PROJECTED_EVENT_TYPES,
  PROJECTED_TYPES_WITHOUT_DATA,
  PROJECTION_VERSION,
  type ReadModels,
} from '../read-models';
import type { UsageRow } from '../usage.read-model';
import type { DeliveryAttemptRow, EndpointHealth } from '../webhook-logs.read-model';
import { ENDPOINT_HEALTH_SCHEMA, SqliteEndpointHealth, type HealthChanges } from './sqlite-endpoint-health';
import { INSTANCES_SCHEMA, SqliteInstances } from './sqlite-instances';
import { SqliteUsage, USAGE_SCHEMA, type UsageTallies } from './sqlite-usage';
import { DELIVERY_ATTEMPTS_SCHEMA, SqliteWebhookLogs } from './sqlite-webhook-logs';

const SCHEMA = `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);${INSTANCES_SCHEMA}${DELIVERY_ATTEMPTS_SCHEMA}${USAGE_SCHEMA}${ENDPOINT_HEALTH_SCHEMA}`;

/** Page cache while catching up (KiB), so that a catch-up's index pages are written once per
 * transaction rather than spilled and read back. */
const CATCH_UP_CACHE_KIB = 64 * 1024;

/**
 * Events a catch-up applies before it stores the usage and endpoint health it counted, and the
 * checkpoint with them. Those two hold a row per instance (and day) that nearly every batch of a
 * rebuild changes: written with each batch, they were a fifth of the rebuild's time (bench e). The
 * instances and attempts are still written batch by batch; should the process stop between two
 * flushes, the next catch-up starts again from the checkpoint and applies them again, which they
 * allow (each row guards by revision or position). What is held in memory is a few hundred bytes
 * per instance (and day), whatever the log's length.
 */
const CATCH_UP_FLUSH_EVENTS = 250_000;

/** Usage and health counted and not yet stored, up to `checkpoint`, from `events` events. */
interface Aggregates {
  usage: UsageTallies;
  health: HealthChanges;
  events: number;
  checkpoint: bigint;
}

/** Nothing counted yet, from `checkpoint` on. */
const nothingCounted = (checkpoint: bigint): Aggregates => ({
  usage: new Map(),
  health: new Map(),
  events: 0,
  checkpoint,
});

/**
 * The API's read models in a local SQLite file, disposable: delete the file and they are rebuilt from
 * the log. Once live, each batch of events and the checkpoint that covers it commit in one
 * transaction (a catch-up stores its counts less often: CATCH_UP_FLUSH_EVENTS); each read model
 * (SqliteInstances, SqliteWebhookLogs, SqliteEndpointHealth, SqliteUsage) writes its own tables
 * within it.
 */
export class SqliteReadModels implements ProjectionTarget, ReadModels {
  /** NotificationCreated and the like are left unread in the store. */
  readonly eventTypes = PROJECTED_EVENT_TYPES;
  /** Recorded messages and acks are counted without reading them. */
  readonly typesWithoutData = PROJECTED_TYPES_WITHOUT_DATA;
  private readonly db: Database.Database;
  private readonly meta;
  private readonly instances: SqliteInstances;
  private readonly webhookLogs: SqliteWebhookLogs;
  private readonly health: SqliteEndpointHealth;
  private readonly usageCounts: SqliteUsage;
  private readonly checkpointer: WalCheckpointer;
  /** Page cache size to return to once caught up; undefined while live. */
  private liveCacheSize?: number;
  /** The checkpoint as last committed. */
  private committed: bigint;
  /** While catching up, the usage and health counted since the checkpoint, not yet stored. */
  private catchUp?: Aggregates;

  /** `catchUpFlushEvents`: CATCH_UP_FLUSH_EVENTS unless a test asks for flushes of fewer. */
  constructor(
    file: string,
    private readonly options: { catchUpFlushEvents?: number } = {},
  ) {
    preparePrivateDatabaseFile(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Losing the tail of a read model on power loss is harmless: it is rebuilt from its checkpoint.
    this.db.pragma('synchronous = NORMAL');
    // Checkpoints (and their fsync of the file) run on a thread of their own, off the event loop.
    this.checkpointer = startWalCheckpointer(this.db, file);
    this.db.defaultSafeIntegers(true);
    this.db.exec(SCHEMA);
    const version = this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get('version');
    if (version?.value !== String(PROJECTION_VERSION)) this.reset();
    this.meta = {
      get: this.db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
      set: this.db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
    this.committed = BigInt(this.meta.get.get('checkpoint') ?? '0');
    this.instances = new SqliteInstances(this.db);
    this.webhookLogs = new SqliteWebhookLogs(this.db);
    this.health = new SqliteEndpointHealth(this.db);
    this.usageCounts = new SqliteUsage(this.db);
  }

  /** Position in the log up to which the models are built (0n when empty). */
  checkpoint(): bigint {
    return this.committed;
  }

  /**
   * Applies events (in log order) and moves the checkpoint, atomically. While catching up, usage and
   * endpoint health are only counted in memory until CATCH_UP_FLUSH_EVENTS have been, and so is
   * the checkpoint (see `catchUp`).
   */
  apply(events: readonly RecordedEvent[], checkpoint: bigint): void {
    const deferred = this.catchUp;
    const aggregates = deferred ?? nothingCounted(checkpoint);
    this.usageCounts.tally(events, aggregates.usage);
    this.health.fold(events, aggregates.health);
    aggregates.events += events.length;
    aggregates.checkpoint = checkpoint;
    const bulk = deferred !== undefined;
    const flush = !deferred || aggregates.events >= (this.options.catchUpFlushEvents ?? CATCH_UP_FLUSH_EVENTS);
    this.commit(flush ? aggregates : undefined, (touched) => {
      this.instances.apply(events, touched);
      this.webhookLogs.apply(events, bulk);
    });
  }

  /** Writes in bulk while a catch-up runs; when it ends, stores what it counted, prunes attempts and
   * returns to the live settings. */
  catchingUp(active: boolean): void {
    if (active) {
      // A catch-up that failed is started again from the checkpoint: what it had counted is dropped.
      this.catchUp = nothingCounted(this.committed);
      this.liveCacheSize ??= Number(this.db.pragma('cache_size', { simple: true }));
      // synchronous stays NORMAL: OFF would save little in WAL mode (NORMAL syncs only at
      // checkpoints) and could leave a corrupt file, not merely an old one, after a power loss.
      this.db.pragma(`cache_size = -${CATCH_UP_CACHE_KIB}`);
      if (this.committed === 0n) this.webhookLogs.dropIndex();
      return;
    }
    const counted = this.catchUp;
    this.catchUp = undefined;
    if (counted) this.commit(counted);
    this.webhookLogs.endCatchUp();
    if (this.liveCacheSize === undefined) return;
    this.db.pragma(`cache_size = ${this.liveCacheSize}`);
    this.liveCacheSize = undefined;
  }

  /**
   * One transaction: `rows` writes the instances and attempts (naming the instances it touches),
   * and `aggregates`, when given, are stored with their checkpoint. Caches are told what committed.
   */
  private commit(aggregates?: Aggregates, rows?: (touched: Map<string, InstanceRow | undefined>) => void): void {
    const touched = new Map<string, InstanceRow | undefined>();
    try {
      this.db.transaction(() => {
        rows?.(touched);
        if (!aggregates) return;
        this.usageCounts.write(aggregates.usage);
        this.health.write(aggregates.health);
        if (aggregates.checkpoint > this.committed) this.meta.set.run('checkpoint', aggregates.checkpoint.toString());
      })();
      if (!aggregates) return;
      this.health.committed(aggregates.health);
      if (aggregates.checkpoint > this.committed) this.committed = aggregates.checkpoint;
      if (this.catchUp === aggregates) this.catchUp = nothingCounted(this.committed);
    } catch (error) {
      if (aggregates) this.health.forget(aggregates.health.keys());
      throw error;
    } finally {
      // Committed or not, the cached rows of these instances are no longer to be trusted.
      this.instances.forget(touched.keys());
    }
  }

  findInstance(instanceId: string): InstanceRow | undefined {
    return this.instances.findInstance(instanceId);
  }

  listInstances(accountId: string): InstanceRow[] {
    return this.instances.listInstances(accountId);
  }

  pageInstances(accountId: string, page: InstancesPage): InstanceRow[] {
    return this.instances.pageInstances(accountId, page);
  }

  usage(accountId: string, from: string, to: string, instanceId?: string): UsageRow[] {
    return this.usageCounts.usage(accountId, from, to, instanceId);
  }

  latestAttempts(instanceId: string, limit: number): DeliveryAttemptRow[] {
    return this.webhookLogs.latestAttempts(instanceId, limit);
  }

  endpointHealth(instanceId: string): EndpointHealth {
    return this.health.health(instanceId);
  }

  /** Every instance row, for audits and rebuild checks. */
  allInstances(): InstanceRow[] {
    return this.instances.allInstances();
  }

  /** Closes the file once its checkpointer thread has let go of it, so that nothing touches the
   * directory after this resolves. */
  async close(): Promise<void> {
    await this.checkpointer.stop();
    this.db.close();
  }

  private reset(): void {
    // A new version may change the tables' shape, so they are made anew rather than emptied.
    this.db.transaction(() => {
      this.db.exec(
        'DROP TABLE IF EXISTS instances; DROP TABLE IF EXISTS delivery_attempts; DROP TABLE IF EXISTS usage; DROP TABLE IF EXISTS endpoint_health; DROP TABLE IF EXISTS meta;',
      );
      this.db.exec(SCHEMA);
      this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('version', String(PROJECTION_VERSION));
    })();
  }
}
