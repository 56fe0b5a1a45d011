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
 * Why a resend of the instance's dead letters would deliver nothing, or null: thrown at once for an
 * instance the log does not hold or a deleted one (its notifications were cancelled with it: docs/api.md
 * 8.1); returned for one that expired or whose delivery is off, where the notifier would cancel what
 * was resent at its first attempt, and a cancelled notification can never be resent (section 6). The
 * caller refuses with it only when there is something to resend.
 */
export async function undeliverable(store: EventStore, instanceId: string, now: string): Promise<string | null> {
  const events = await store.readStream(instanceStreamName(instanceId));
  const state = events
    .map((event) => ({ type: event.type, data: event.data }))
    .filter(isInstanceEvent)
    .reduce(evolveInstance, initialInstanceState());
  if (state.status === 'deleted')
    throw new InstanceRefused(
      `instance ${instanceId} was deleted: its notifications were cancelled with it and are not sent again`,
    );
  if (state.status !== 'created') throw new InstanceRefused(`no instance ${instanceId}`);
  if (deliveryEnabled(state, now)) return null;
  const why =
    instanceStatus(state.expiresAt, now) === 'expired'
      ? `expired at ${state.expiresAt} (renew it first)`
      : state.webhookUrl === ''
        ? 'has no webhook URL registered (register one first)'
        : `has delivery switched off${state.disabledReason ? ` (${state.disabledReason})` : ''} (register the URL again first)`;
  return `instance ${instanceId} ${why}: resent notifications would be cancelled at their first attempt, and could not be resent again`;
}
