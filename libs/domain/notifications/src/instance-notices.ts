import { addHours } from '@gw/domain-core';
import { deliveryEnabled, type InstanceEvent, type InstanceState } from '@gw/domain-instances';

/** What an instance notice tells its receiver (docs/api.md 8.9). */
export type InstanceNotice =
  { event: 'expiring'; expiresAt: string } | { event: 'renewed'; packageid: string; expiresAt: string };

/** A renewal to announce: the `instance` kind was chosen and delivery on when it happened. */
export interface AnnouncedRenewal {
  renewedAt: string;
  packageId: string;
  expiresAt: string;
}

/**
 * The stretch of an instance's life its notices are judged in: from its creation or last renewal
 * (`since`) to `expiresAt`, and the latest renewals to announce, oldest first. Several renewals may
 * come before a notice is made for the first (two in a second, or while no notifier runs): each is
 * announced, so the period keeps them, at most MAX_RENEWALS, until the ledger says they were.
 */
export interface NoticePeriod {
  since: string;
  expiresAt: string;
  renewals: AnnouncedRenewal[];
}

const MAX_RENEWALS = 10;

/** The notices already created: the expiring ones for one expiry, by key (`expiring@72`; a renewal
 * moves on to a new expiry, which resets them), and the latest renewal announced (renewals are
 * announced in order, so every one up to it was). Kept in the notifications state so that none is
 * made twice. */
export interface NoticeLedger {
  expiresAt: string;
  keys: string[];
  lastRenewal?: string;
}

/** A notice that is due, and the key that makes it once only per expiry. */
export interface DueNotice {
  key: string;
  notice: InstanceNotice;
}

/** Folds an instance event into its notice period; `after` is the instance once the event applied. */
export function evolveNoticePeriod(
  period: NoticePeriod | null,
  event: InstanceEvent,
  after: InstanceState,
): NoticePeriod | null {
  switch (event.type) {
    case 'InstanceCreated':
      return { since: event.data.createdAt, expiresAt: event.data.expiresAt, renewals: [] };
    case 'InstanceRenewed': {
      const { renewedAt, packageId, expiresAt } = event.data;
      const announce =
        after.status === 'created' && after.events.includes('instance') && deliveryEnabled(after, renewedAt);
      const renewals = [...(period?.renewals ?? []), ...(announce ? [{ renewedAt, packageId, expiresAt }] : [])].slice(
        -MAX_RENEWALS,
      );
      return { since: renewedAt, expiresAt, renewals };
    }
    case 'InstanceDeleted':
      return null;
    default:
      return period;
  }
}

const expiringKey = (hours: number) => `expiring@${hours}`;
const RENEWED = 'renewed@';
const renewedKey = (renewal: AnnouncedRenewal) => `${RENEWED}${renewal.renewedAt}`;

/** The recorded notice keys that apply to the period's expiry. */
function recordedKeys(period: NoticePeriod, ledger: NoticeLedger | null): ReadonlySet<string> {
  return new Set(ledger?.expiresAt === period.expiresAt ? ledger.keys : []);
}

/** Each mark of the period not yet notified whose moment comes after the period began, with its
 * moment (ms); earliest first. A mark already passed when the period began is never due. */
function openMarks(
  period: NoticePeriod,
  ledger: NoticeLedger | null,
  hours: readonly number[],
): Array<{ key: string; at: number }> {
  const done = recordedKeys(period, ledger);
  const since = Date.parse(period.since);
  const expiresAt = Date.parse(period.expiresAt);
  const marks: Array<{ key: string; at: number }> = [];
  for (const h of new Set(hours)) {
    const at = Date.parse(addHours(period.expiresAt, -h));
    if (at > since && at < expiresAt && !done.has(expiringKey(h))) marks.push({ key: expiringKey(h), at });
  }
  for (const renewal of period.renewals) {
    if (!renewalRecorded(ledger, renewal.renewedAt))
      marks.push({ key: renewedKey(renewal), at: Date.parse(renewal.renewedAt) });
  }
  return marks.sort((a, b) => a.at - b.at || (a.key.startsWith(RENEWED) ? -1 : 1));
}

/** Whether notices may be created for the instance now: kind chosen, delivery on, not expired. */
function noticesWanted(instance: InstanceState, period: NoticePeriod | null, now: string): period is NoticePeriod {
  return (
    instance.status === 'created' &&
    period !== null &&
    instance.events.includes('instance') &&
    deliveryEnabled(instance, now)
  );
}

/**
 * The instance notices due at `now` (docs/api.md 8.9): the renewal that started the period, then each
 * EXPIRY_NOTICE_HOURS mark reached, in time order; none already recorded in `ledger`.
 */
export function dueNotices(
  instance: InstanceState,
  period: NoticePeriod | null,
  ledger: NoticeLedger | null,
  now: string,
  hours: readonly number[],
): DueNotice[] {
  if (!noticesWanted(instance, period, now)) return [];
  const nowMs = Date.parse(now);
  return openMarks(period, ledger, hours)
    .filter((m) => m.at <= nowMs)
    .map(({ key }) => {
      const renewal = period.renewals.find((r) => renewedKey(r) === key);
      const notice: InstanceNotice = renewal
        ? { event: 'renewed', packageid: renewal.packageId, expiresAt: renewal.expiresAt }
        : { event: 'expiring', expiresAt: period.expiresAt };
      return { key, notice };
    });
}

/** When the instance's next notice is due (ms; at or before `now` when one is due already), or null
 * when none will be unless the instance or its notifications change. */
export function nextNoticeAt(
  instance: InstanceState,
  period: NoticePeriod | null,
  ledger: NoticeLedger | null,
  now: string,
  hours: readonly number[],
): number | null {
  if (!noticesWanted(instance, period, now)) return null;
  return openMarks(period, ledger, hours)[0]?.at ?? null;
}

function renewalRecorded(ledger: NoticeLedger | null, renewedAt: string): boolean {
  return ledger?.lastRenewal !== undefined && Date.parse(renewedAt) <= Date.parse(ledger.lastRenewal);
}

/** The ledger once a notice with `key` for `expiresAt` was created. */
export function withNotice(ledger: NoticeLedger | null, expiresAt: string, key: string): NoticeLedger {
  const lastRenewal = ledger?.lastRenewal;
  if (key.startsWith(RENEWED)) {
    const renewedAt = key.slice(RENEWED.length);
    if (renewalRecorded(ledger, renewedAt)) return ledger!;
    return { expiresAt: ledger?.expiresAt ?? expiresAt, keys: ledger?.keys ?? [], lastRenewal: renewedAt };
  }
  const kept = lastRenewal === undefined ? {} : { lastRenewal };
  if (ledger?.expiresAt !== expiresAt) return { expiresAt, keys: [key], ...kept };
  return ledger.keys.includes(key) ? ledger : { expiresAt, keys: [...ledger.keys, key], ...kept };
}

/** Whether the ledger holds the notice already. */
export function noticeRecorded(ledger: NoticeLedger | null, expiresAt: string, key: string): boolean {
  if (key.startsWith(RENEWED)) return renewalRecorded(ledger, key.slice(RENEWED.length));
  return ledger?.expiresAt === expiresAt && ledger.keys.includes(key);
}
