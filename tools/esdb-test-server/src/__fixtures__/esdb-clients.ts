import { EventStoreDBClient, jsonEvent, type ResolvedEvent } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { startEsdbTestServer, type EsdbTestServer } from '../index';

/** What the test server's specs share: a server and a real client per describe, closed after all. */

const servers: EsdbTestServer[] = [];
const clients: EventStoreDBClient[] = [];

export async function connect(): Promise<{ server: EsdbTestServer; client: EventStoreDBClient }> {
  const server = await startEsdbTestServer();
  servers.push(server);
  return { server, client: clientFor(server.connectionString) };
}

/** Another client, disposed of after all. */
export function clientFor(connectionString: string): EventStoreDBClient {
  const client = EventStoreDBClient.connectionString(connectionString);
  clients.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await Promise.all(servers.map((server) => server.stop()));
});

export async function collect<E extends ResolvedEvent>(stream: AsyncIterable<E>): Promise<E[]> {
  const events: E[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const event = (type: string, data: Record<string, unknown>, id: string = randomUUID()) => jsonEvent({ id, type, data });

/** Resolves when `predicate` holds, polling the received events. */
export async function until(predicate: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

