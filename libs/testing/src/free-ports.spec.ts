import { createServer } from 'node:net';
import { freePorts } from './free-ports';

function bind(port: number): Promise<void> {
  const server = createServer();
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

describe('freePorts', () => {
  it('gives distinct ports, however many are asked for at once', async () => {
    // Chosen one after the other (listen on 0, close, again), 200 ports held a repeat in 19 runs of
    // 20 here: the kernel may hand out again a port it just got back.
    const ports = await freePorts(200);
    expect(ports).toHaveLength(200);
    expect(new Set(ports).size).toBe(200);
    for (const port of ports) expect(Number.isInteger(port) && port > 0 && port < 65536).toBe(true);
  });

  it('leaves the ports free for the caller to bind', async () => {
    const ports = await freePorts(3);
    for (const port of ports) await expect(bind(port)).resolves.toBeUndefined();
  });

  it('gives nothing for nothing', async () => {
    await expect(freePorts(0)).resolves.toEqual([]);
  });
});
