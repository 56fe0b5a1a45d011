import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { verifyStreamChain } from '../event-chain';
import { EventStoreUnavailableError } from '../event-store.errors';
import type { EventStore } from '../event-store.port';
import { eventStoreContractSuite, type EventStoreContractHarness } from '../testing/event-store-contract';
import { spawnAppender } from '../testing/spawn-appender';
import { EsdbEventStore } from './esdb-event-store';

/** The contract suite against any EventStoreDB reachable by a connection string. */
function harness(name: string, connectionString: () => string): EventStoreContractHarness {
  return {
    name,
    deleteKeepsEventsInGlobalLog: true,
    listsStreams: false,
    checksRequiredStreamApart: true,
    async create() {
      const stores: EventStore[] = [];
      const open = () => {
        const store = new EsdbEventStore({ connectionString: connectionString(), maxResubscribeDelayMs: 200 });
        stores.push(store);
        return store;
      };
      return {
        store: open(),
        openAnother: async () => open(),
        spawnAppender: (streamPrefix, concurrency) => spawnAppender(connectionString(), streamPrefix, concurrency),
        cleanup: async () => {
          await Promise.all(stores.map((s) => s.close()));
        },
      };
    },
  };
}

describe('EventStoreDB adapter', () => {
  let server: EsdbTestServer;
  beforeAll(async () => {
    server = await startEsdbTestServer({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  // The in-repo protocol test server: a test double that speaks EventStoreDB's gRPC protocol.
  eventStoreContractSuite(harness('EventStoreDB protocol test server', () => server.connectionString));

  it('breaks the chain at the stream and revision of an event whose stored bytes were altered on the server', async () => {
    const store = new EsdbEventStore({ connectionString: server.connectionString });
    try {
      const name = `tamper-${randomUUID()}`;
      await store.append(
        name,
        [0, 1, 2].map((n) => ({ id: randomUUID(), type: 'T', data: { amount: n } })),
        'no_stream',
      );
      expect(verifyStreamChain(await store.readStream(name))).toEqual({ ok: true });
      server.log.alterEvent(name, 1, { data: Buffer.from('{"amount":7}') });
      expect(verifyStreamChain(await store.readStream(name))).toMatchObject({
        ok: false,
        revision: 1n,
        reason: expect.stringContaining('does not match its hash'),
      });
      server.log.alterEvent(name, 2, { customMetadata: Buffer.from('{"chain":') });
      const events = await store.readStream(name);
      expect(events[2].metadata).toEqual({ $unreadable: ['metadata'] });
      expect(verifyStreamChain(events.slice(2))).toEqual({
        ok: false,
        revision: 2n,
        reason: 'stored metadata is not valid JSON',
      });
    } finally {
      await store.close();
    }
  });

  it('keeps no listener on the subscription signal from the waits that are over', async () => {
    const store = new EsdbEventStore({ connectionString: server.connectionString });
    const controller = new AbortController();
    const name = `idle-${randomUUID()}`;
    const seen = new Set<string>();
    const following = (async () => {
      for await (const message of store.subscribeToAll({
        filter: { streamNamePrefixes: [name] },
        signal: controller.signal,
      })) {
        if (message.kind === 'event') seen.add(message.event.id);
      }
    })();
    try {
      // Each event, delivered alone, ends a wait of the live subscription and starts another.
      for (let i = 0; i < 15; i++) {
        const id = randomUUID();
        await store.append(name, [{ id, type: 'T', data: { i } }], 'any');
        for (let tries = 0; !seen.has(id) && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
        expect(seen.has(id)).toBe(true);
      }
      // The subscription's own stop, and the wait in progress.
      expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
    } finally {
      controller.abort();
      await following;
      await store.close();
    }
  });

  it('reports an outage as unavailable, and works again once the server is back', async () => {
    const store = new EsdbEventStore({ connectionString: server.connectionString });
    try {
      await store.append(
        'outage-1',
        [{ id: '3f1c1f8e-4b1a-4c39-9a55-5a9d3a1b2c01', type: 'Before', data: {} }],
        'no_stream',
      );
      const outage = server.simulateOutage(1500);
      await new Promise((r) => setTimeout(r, 100));
      await expect(store.readStream('outage-1')).rejects.toBeInstanceOf(EventStoreUnavailableError);
      await outage;
      let events = await store.readStream('outage-1').catch(() => undefined);
      for (let i = 0; !events && i < 20; i++) {
        await new Promise((r) => setTimeout(r, 200));
        events = await store.readStream('outage-1').catch(() => undefined);
      }
      expect(events?.map((e) => e.type)).toEqual(['Before']);
    } finally {
      await store.close();
    }
  });
});

// A real server, when one is given: ESDB_TEST_URL=esdb://localhost:2113?tls=false npm test
const realServer = process.env['ESDB_TEST_URL'];
if (realServer) eventStoreContractSuite(harness(`EventStoreDB at ${realServer}`, () => realServer));
