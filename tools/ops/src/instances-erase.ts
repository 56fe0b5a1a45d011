// `npm run ops -- instances erase --instance ID` (docs/api.md section 9): destroys every data key of an
// instance, active or deleted, so that its messages and acks can never be read again.
import { erasePersonalData } from '@gw/application';
import { instanceStreamName } from '@gw/domain-instances';
import type { EventStore } from '@gw/event-store';
import { parseArgs } from 'node:util';

/** The instance named is not in the log. */
class NoSuchInstance extends Error {
  constructor(instanceId: string) {
    super(`no instance ${instanceId}`);
    this.name = 'NoSuchInstance';
  }
}

/** `--instance ID` of the command line; empty when missing. */
export function instanceOption(args: string[]): string {
  const { values } = parseArgs({ args, options: { instance: { type: 'string' } }, strict: true });
  return values.instance?.trim() ?? '';
}

/** Erases the instance's personal data; prints nothing secret: the instance and the days erased. */
export async function eraseInstance(
  store: EventStore,
  instanceId: string,
): Promise<{ instance: string; erasedDays: string[] }> {
  if ((await store.readLastEvent(instanceStreamName(instanceId))) === undefined) throw new NoSuchInstance(instanceId);
  const erasedDays = await erasePersonalData(store, {
    instanceId,
    days: null,
    reason: 'operator',
    at: new Date().toISOString(),
  });
  return { instance: instanceId, erasedDays };
}
