// What the operator's instance commands share: the `--instance` option and the checks that the
// instance named is one the log knows.
import {
  deliveryEnabled,
  evolveInstance,
  initialInstanceState,
  instanceStatus,
  instanceStreamName,
  isInstanceEvent,
} from '@gw/domain-instances';
import type { EventStore } from '@gw/event-store';
import { parseArgs } from 'node:util';

/** The instance named is not in the log, or no longer takes the command. */
export class InstanceRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstanceRefused';
  }
}

/** `--instance ID` of the command line; empty when missing. */
export function instanceOption(args: string[]): string {
  const { values } = parseArgs({ args, options: { instance: { type: 'string' } }, strict: true });
  return values.instance?.trim() ?? '';
}

/** Refuses an instance the log does not hold. */
export async function requireInstance(store: EventStore, instanceId: string): Promise<void> {
  if ((await store.readLastEvent(instanceStreamName(instanceId))) === undefined)
    throw new InstanceRefused(`no instance ${instanceId}`);
}

/**
 * Refuses a resend that could deliver nothing: for an instance the log does not hold, a deleted one
 * (its notifications were cancelled with it: docs/api.md 8.1), or one whose delivery is off or which
 * expired (the notifier would cancel what was resent at its first attempt, and a cancelled
 * notification can never be resent: section 6).
 */
export async function requireDeliverable(store: EventStore, instanceId: string, now: string): Promise<void> {
  const events = await store.readStream(instanceStreamName(instanceId));
  if (events.length === 0) throw new InstanceRefused(`no instance ${instanceId}`);
  const state = events
    .map((event) => ({ type: event.type, data: event.data }))
    .filter(isInstanceEvent)
    .reduce(evolveInstance, initialInstanceState());
  if (state.status === 'deleted')
    throw new InstanceRefused(
      `instance ${instanceId} was deleted: its notifications were cancelled with it and are not sent again`,
    );
  if (state.status !== 'created') throw new InstanceRefused(`no instance ${instanceId}`);
  if (deliveryEnabled(state, now)) return;
  const why =
    instanceStatus(state.expiresAt, now) === 'expired'
      ? `expired at ${state.expiresAt} (renew it first)`
      : state.webhookUrl === ''
        ? 'has no webhook URL registered (register one first)'
        : `has delivery switched off${state.disabledReason ? ` (${state.disabledReason})` : ''} (register the URL again first)`;
  throw new InstanceRefused(
    `instance ${instanceId} ${why}: resent notifications would be cancelled at their first attempt, and could not be resent again`,
  );
}
