import { canonicalKinds, isNotificationKind, type NotificationKind } from '@gw/domain-instances';

/** The longest `events` value accepted: every kind a few times over, with spaces. */
export const MAX_EVENTS_LENGTH = 256;

/**
 * The names an `events` value lists (docs/api.md 8.4): split at commas, with the spaces around each
 * name dropped; an item with nothing in it is skipped, so `" , "` lists none.
 */
function kindNames(text: string): string[] {
  const names: string[] = [];
  for (const item of text.split(',')) {
    const name = item.replace(/^ +| +$/g, '');
    if (name !== '') names.push(name);
  }
  return names;
}

/** Whether `text` names at least one kind and nothing but kinds (names are case-sensitive). */
export function isKindSet(text: string): boolean {
  const names = kindNames(text);
  return names.length > 0 && names.every(isNotificationKind);
}

/** The set `text` chooses, in canonical order; call it on text that `isKindSet` accepts. */
export function parseKindSet(text: string): NotificationKind[] {
  return canonicalKinds(kindNames(text).filter(isNotificationKind));
}
