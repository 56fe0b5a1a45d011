// An in-memory EventStoreDB gRPC server for tests: a test double of the database that speaks enough
// of the protocol for @eventstore/db-client 6.2.1's appendToStream, readStream, readAll,
// subscribeToAll (and subscribeToStream) and deleteStream (a soft delete; see log.ts), without TLS
// or authentication. Data lives in memory
// for the life of the object, across simulated outages.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { CallRegistry } from './calls';
import { InMemoryLog } from './log';
import { serverFeaturesHandlers } from './server-features';
import { appendHandler } from './streams-append';
import { deleteHandler } from './streams-delete';
import { readHandler } from './streams-read';

export { InMemoryLog } from './log';
export type { RecordedEvent, StreamView } from './log';

export interface EsdbTestServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

export interface EsdbTestServer {
  readonly port: number;
  /** `esdb://HOST:PORT?tls=false`, for EventStoreDBClient.connectionString(). */
  readonly connectionString: string;
  /** The events held, for assertions. */
  readonly log: InMemoryLog;
  /**
   * Ends every open call with UNAVAILABLE, drops every connection and refuses new ones for `ms`,
   * then listens again on the same port with the same data. Resolves once it is back.
   */
  simulateOutage(ms: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startEsdbTestServer(options: EsdbTestServerOptions = {}): Promise<EsdbTestServer> {
  const host = options.host ?? '127.0.0.1';
  const log = new InMemoryLog();
  const calls = new CallRegistry();
  const started = await listen(log, calls, host, options.port ?? 0);
  let server = started.server;
  const port = started.port;
  let stopped = false;
  let outage: Promise<void> | undefined;

  const takeDown = async (reason: string): Promise<void> => {
    calls.abortAll(reason);
    // Let the UNAVAILABLE statuses go out before the connections are destroyed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.forceShutdown();
  };

  return {
    port,
    connectionString: `esdb://${host.includes(':') ? `[${host}]` : host}:${port}?tls=false`,
    log,
    simulateOutage(ms: number): Promise<void> {
      if (stopped) return Promise.reject(new Error('the EventStoreDB test server is stopped'));
      if (outage) return outage;
      outage = (async () => {
        try {
          await takeDown('the EventStoreDB test server is simulating an outage');
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
          if (stopped) return;
          ({ server } = await listen(log, calls, host, port));
          calls.resume();
        } finally {
          outage = undefined;
        }
      })();
      return outage;
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await outage?.catch(() => undefined);
      await takeDown('the EventStoreDB test server stopped');
    },
  };
}

function createServer(log: InMemoryLog, calls: CallRegistry): Server {
  const server = new Server();
  server.addService(ServerFeaturesService, serverFeaturesHandlers(calls));
  // Tombstone and BatchAppend are left out: grpc-js answers them with UNIMPLEMENTED.
  server.addService(StreamsService, {
    read: readHandler(log, calls),
    append: appendHandler(log, calls),
    delete: deleteHandler(log, calls),
  });
  return server;
}

/** A new server listening on host:port (retrying briefly while a previous listener still closes). */
async function listen(
  log: InMemoryLog,
  calls: CallRegistry,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const server = createServer(log, calls);
    try {
      const bound = await new Promise<number>((resolve, reject) =>
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, actual) =>
          error ? reject(error) : resolve(actual),
        ),
      );
      return { server, port: bound };
    } catch (error) {
      server.forceShutdown();
      if (port === 0 || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
