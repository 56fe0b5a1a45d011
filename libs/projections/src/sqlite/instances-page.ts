import type Database from 'better-sqlite3';
import type { InstancesPage } from '../instances.read-model';

/**
 * listInstances pages (docs/api.md 13.1) as keyset queries on the index (account_id, created_at,
 * instance_id), or (account_id, label, created_at, instance_id) with a label: a page reads its rows
 * and no others, whatever the account's size. A status filter is applied to the rows the index
 * yields in order, so a page of a status costs the instances of the other status passed over.
 */
export class InstancePages {
  /** One prepared statement per combination of filters (eight at most). */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** The rows of one page, as stored. */
  run<R>(accountId: string, page: InstancesPage): R[] {
    const parts = ['account_id = @accountId', 'deleted_at IS NULL'];
    if (page.label !== undefined) parts.push('label = @label');
    if (page.status === 'active') parts.push('expires_at > @now');
    if (page.status === 'expired') parts.push('expires_at <= @now');
    if (page.after) parts.push('(created_at, instance_id) > (@afterCreatedAt, @afterId)');
    const limit = page.limit === undefined ? '' : ' LIMIT @limit';
    const sql = `SELECT * FROM instances WHERE ${parts.join(' AND ')} ORDER BY created_at, instance_id${limit}`;
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    const params: Record<string, unknown> = { accountId };
    if (page.label !== undefined) params['label'] = page.label;
    if (page.status) params['now'] = page.now;
    if (page.after) {
      params['afterCreatedAt'] = page.after.createdAt;
      params['afterId'] = page.after.instanceId;
    }
    if (page.limit !== undefined) params['limit'] = page.limit;
    return statement.all(params) as R[];
  }
}
