import { createServer, type AddressInfo, type Server } from 'node:net';

/**
 * `count` distinct loopback ports free now. Every port is held until all are chosen: ports asked for
 * one after the other (listen on 0, close, listen on 0 again) can be the same port twice, which gave
 * an app two listeners on one port (the bench's b failed to start so). Another process may still
 * take one before the caller binds it; nothing here can prevent that.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(
      servers.map(
        (server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
      ),
    );
  }
}
