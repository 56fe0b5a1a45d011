import { deliveryEnabled, type InstanceEvent, type InstanceState } from '@gw/domain-instances';

const HOUR_MS = 60 * 60 * 1000;

/** What an instance notice tells its receiver (docs/api.md 8.9). */
export type InstanceNotice = { event: 'expiring'; expiresAt: string } | { event: 'renewed'; packageid: string; expiresAt: string };

/**
 * The stretch of an instance's life its notices are judged in: from its creation or last renewal
 * (`since`) to `expiresAt`. `renewal` says whether it began with a renewal, and whether that renewal is
 * to be announced: the `instance` kind was chosen and delivery on when it happened.
 */
export interface NoticePeriod {
  since: string;
  expiresAt: string;
  renewal: { packageId: string; announce: boolean } | null;
}

/** The notices already created for one expiry, by key (`renewed`, `expiring@72`); a renewal moves
 * on to a new expiry, which resets them. Kept in the notifications state so that none is made twice. */
export interface NoticeLedger {
  expiresAt: string;
  keys: string[];
}

/** A notice that is due, and the key that makes it once only per expiry. */
export interface DueNotice {
  key: string;
  notice: InstanceNotice;
}

/** Folds an instance event into its notice period; `after` is the instance once the event applied. */
export function evolveNoticePeriod(period: NoticePeriod | null, event: InstanceEvent, after: InstanceState): NoticePeriod | null {
  switch (event.type) {
    case 'InstanceCreated':
      return { since: event.data.createdAt, expiresAt: event.data.expiresAt, renewal: null };
    case 'InstanceRenewed': {
      const announce = after.status === 'created' && after.events.includes('instance') && deliveryEnabled(after, event.data.renewedAt);
      return { since: event.data.renewedAt, expiresAt: event.data.expiresAt, renewal: { packageId: event.data.packageId, announce } };
    }
    case 'InstanceDeleted':
      return null;
    default:
      return period;
  }
}

const expiringKey = (hours: number) => `expiring@${hours}`;

/** The recorded notice keys that apply to the period's expiry. */
function recordedKeys(period: NoticePeriod, ledger: NoticeLedger | null): ReadonlySet<string> {
  return new Set(ledger?.expiresAt === period.expiresAt ? ledger.keys : []);
}

/** Each mark of the period not yet notified whose moment comes after the period began, with its
 * moment (ms); earliest first. A mark already passed when the period began is never due. */
function openMarks(period: NoticePeriod, ledger: NoticeLedger | null, hours: readonly number[]): Array<{ key: string; at: number }> {
  const done = recordedKeys(period, ledger);
  const since = Date.parse(period.since);
  const expiresAt = Date.parse(period.expiresAt);
  const marks: Array<{ key: string; at: number }> = [];
  for (const h of new Set(hours)) {
    const at = expiresAt - h * HOUR_MS;
    if (at > since && at < expiresAt && !done.has(expiringKey(h))) marks.push({ key: expiringKey(h), at });
  }
  if (period.renewal?.announce && !done.has('renewed')) marks.push({ key: 'renewed', at: since });
  return marks.sort((a, b) => a.at - b.at || (a.key === 'renewed' ? -1 : 1));
}

/** Whether notices may be created for the instance now: kind chosen, delivery on, not expired. */
function noticesWanted(instance: InstanceState, period: NoticePeriod | null, now: string): period is NoticePeriod {
  return instance.status === 'created' && period !== null && instance.events.includes('instance') && deliveryEnabled(instance, now);
}

/**
 * The instance notices due at `now` (docs/api.md 8.9): the renewal that started the period, then each
 * EXPIRY_NOTICE_HOURS mark reached, in time order; none already recorded in `ledger`.
 */
export function dueNotices(instance: InstanceState, period: NoticePeriod | null, ledger: NoticeLedger | null, now: string, hours: readonly number[]): DueNotice[] {
  if (!noticesWanted(instance, period, now)) return [];
  const nowMs = Date.parse(now);
  return openMarks(period, ledger, hours)
    .filter((m) => m.at <= nowMs)
    .map(({ key }) => ({
      key,
      notice:
        key === 'renewed'
          ? { event: 'renewed', packageid: period.renewal!.packageId, expiresAt: period.expiresAt }
          : { event: 'expiring', expiresAt: period.expiresAt },
    }));
}

/** When the instance's next notice is due (ms; at or before `now` when one is due already), or null
 * when none will be unless the instance or its notifications change. */
export function nextNoticeAt(instance: InstanceState, period: NoticePeriod | null, ledger: NoticeLedger | null, now: string, hours: readonly number[]): number | null {
  if (!noticesWanted(instance, period, now)) return null;
  return openMarks(period, ledger, hours)[0]?.at ?? null;
}

/** The ledger once a notice with `key` for `expiresAt` was created. */
export function withNotice(ledger: NoticeLedger | null, expiresAt: string, key: string): NoticeLedger {
  if (ledger?.expiresAt !== expiresAt) return { expiresAt, keys: [key] };
  return ledger.keys.includes(key) ? ledger : { expiresAt, keys: [...ledger.keys, key] };
}

/** Whether the ledger holds the notice already. */
export function noticeRecorded(ledger: NoticeLedger | null, expiresAt: string, key: string): boolean {
  return ledger?.expiresAt === expiresAt && ledger.keys.includes(key);
}
