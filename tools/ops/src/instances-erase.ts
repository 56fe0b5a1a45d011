// `npm run ops -- instances erase --instance ID` (docs/api.md section 9): destroys every data key of an
// instance, active or deleted, so that its messages and acks can never be read again.
import { erasePersonalData } from '@gw/application';
import type { EventStore } from '@gw/event-store';
import { requireInstance } from './instances';

/** Erases the instance's personal data; prints nothing secret: the instance and the days erased. */
export async function eraseInstance(
  store: EventStore,
  instanceId: string,
): Promise<{ instance: string; erasedDays: string[] }> {
  await requireInstance(store, instanceId);
  const erasedDays = await erasePersonalData(store, {
    instanceId,
    days: null,
    reason: 'operator',
    at: new Date().toISOString(),
  });
  return { instance: instanceId, erasedDays };
}
