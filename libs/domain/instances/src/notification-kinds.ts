/** The kinds of notification an instance's owner may choose (docs/api.md 8.4): incoming messages,
 * the instance's own messages (`fromMe`), acks, notices about the instance itself, and changes of
 * its connection state (13.2). */
export const NOTIFICATION_KINDS = ['messages', 'ownMessages', 'acks', 'instance', 'state'] as const;
/** One of NOTIFICATION_KINDS. */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a registration without `events` chooses. */
export const DEFAULT_NOTIFICATION_KINDS: readonly NotificationKind[] = ['messages', 'ownMessages', 'acks'];

/** Whether a name is a notification kind. */
export function isNotificationKind(name: string): name is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(name);
}

/** The set in its canonical order, each kind once. */
export function canonicalKinds(kinds: Iterable<NotificationKind>): NotificationKind[] {
  const chosen = new Set(kinds);
  return NOTIFICATION_KINDS.filter((kind) => chosen.has(kind));
}

/** Whether two lists name the same kinds, whatever their order and repetitions. */
export function sameKinds(a: readonly NotificationKind[], b: readonly NotificationKind[]): boolean {
  const x = canonicalKinds(a);
  const y = canonicalKinds(b);
  return x.length === y.length && x.every((kind, i) => kind === y[i]);
}
