import { PersonalData, SecretBox, withEventSchemas } from '@gw/application';
import { loadStoreEnvironment } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';

/** A variable this app cannot run without. */
export function required(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    process.stderr.write(`${name} is required\n`);
    process.exit(2);
  }
  return value;
}

/**
 * The service's log, opened as the service opens it: DATA_DIR or EVENT_STORE says where it is, and
 * events are written and read in their current schema (withEventSchemas), as the API and the
 * notifier write and read them. `personalData` seals and opens messages' personal fields under
 * SECRETS_KEY (or the development key file DATA_DIR/secrets.key). `work` runs with the store open.
 */
export async function withGatewayStore<T>(
  work: (store: EventStore, personalData: PersonalData) => Promise<T>,
): Promise<T> {
  const environment = loadStoreEnvironment();
  const store = withEventSchemas(openEventStore(environment.eventStore, { lockTimeoutMs: environment.lockTimeoutMs }));
  try {
    return await work(store, PersonalData.on(store, new SecretBox(environment.secretsKey)));
  } finally {
    await store.close();
  }
}
