// What the operator's instance commands share: the `--instance` option and the checks that the
// instance named is one the log knows.
import { instanceStreamName } from '@gw/domain-instances';
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

/** Refuses an instance the log does not hold, or one that was deleted (its notifications were
 * cancelled with it and are never sent again: docs/api.md 8.1). */
export async function requireActiveInstance(store: EventStore, instanceId: string): Promise<void> {
  const last = await store.readLastEvent(instanceStreamName(instanceId));
  if (last === undefined) throw new InstanceRefused(`no instance ${instanceId}`);
  if (last.type === 'InstanceDeleted')
    throw new InstanceRefused(
      `instance ${instanceId} was deleted: its notifications were cancelled with it and are not sent again`,
    );
}
