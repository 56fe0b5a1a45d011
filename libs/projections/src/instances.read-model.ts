import {
  evolveInstance,
  initialInstanceState,
  type CreatedInstance,
  type InstanceEvent,
  type InstanceState,
} from '@gw/domain-instances';

/** One instance as the read models keep it: the domain's own state plus the stream revision applied
 * last. `tokenHash` is there to authenticate queries; it is never part of an answer. A deleted
 * instance stays as a tombstone (`deletedAt` set) so that replaying its events changes nothing; the
 * queries never return it. */
export type InstanceRow = Omit<CreatedInstance, 'status'> & { revision: bigint; deletedAt: string | null };

/** What the API asks of the instances read model (listInstances, getWebhookStatus, and the token
 * check of every instance-scoped query). The answers reflect the log up to the models' checkpoint. */
export interface InstancesQuery {
  /** An account's instances, oldest first (by creation time, then id); deleted ones left out. */
  listInstances(accountId: string): InstanceRow[];
  /** One page of an account's instances in the same order, after the `after` row (docs/api.md 13.1):
   * at most `limit` rows (all when undefined), filtered by `label` and by `status` at `now`. */
  pageInstances(accountId: string, page: InstancesPage): InstanceRow[];
  /** One instance's row, or undefined when there is no such instance or it was deleted. */
  findInstance(instanceId: string): InstanceRow | undefined;
}

/** What a page of listInstances asks for (docs/api.md 13.1). */
export interface InstancesPage {
  after?: Pick<InstanceRow, 'createdAt' | 'instanceId'>;
  limit?: number;
  label?: string;
  status?: 'active' | 'expired';
  now: string;
}

// A record rather than a list, so that a new instance event type fails the build until it is named here.
const INSTANCE_TYPES: Record<InstanceEvent['type'], true> = {
  InstanceCreated: true,
  InstanceRenewed: true,
  SigningSecretIssued: true,
  SigningSecretRotated: true,
  WebhookSet: true,
  WebhookCleared: true,
  WebhookDisabledByReceiver: true,
  InstanceTokenReset: true,
  InstanceDeleted: true,
  WebhookHeadersSet: true,
  SignatureSchemeChosen: true,
  SigningKeyPairIssued: true,
  SigningKeyPairRotated: true,
  WebhookDisabledForFailing: true,
  InstanceLabelSet: true,
  InstanceStateReported: true,
};

/** The event types that change an instance row: all of an instance's. */
export const INSTANCE_ROW_EVENT_TYPES = Object.keys(INSTANCE_TYPES) as ReadonlyArray<InstanceEvent['type']>;

/**
 * The instance row after `event`, folded with the domain's own `evolve` so that the read model and
 * the write side cannot drift apart. An event at or below the row's revision was applied already and
 * leaves the row unchanged, so applying an event twice is harmless.
 */
export function projectInstance(
  row: InstanceRow | undefined,
  event: InstanceEvent,
  revision: bigint,
): InstanceRow | undefined {
  if (row && revision <= row.revision) return row;
  if (row?.deletedAt) return { ...row, revision };
  const before: InstanceState = row ? { status: 'created', ...withoutBookkeeping(row) } : initialInstanceState();
  const after = evolveInstance(before, event);
  if (after.status === 'deleted' && row) return { ...row, deletedAt: after.deletedAt, revision };
  if (after.status !== 'created') return undefined;
  const { status: _status, ...fields } = after;
  return { ...fields, revision, deletedAt: null };
}

function withoutBookkeeping(row: InstanceRow): Omit<InstanceRow, 'revision' | 'deletedAt'> {
  const { revision: _revision, deletedAt: _deletedAt, ...fields } = row;
  return fields;
}
