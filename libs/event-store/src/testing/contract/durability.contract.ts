import { randomUUID } from 'node:crypto';
import type { ContractContext } from './contract-fixture';

/** Acknowledged appends survive the writing process being killed (SIGKILL). Durable adapters only. */
export function durabilityContract(current: ContractContext): void {
  describe('durability', () => {
    /** Runs an appender child until it acknowledged `count` appends, kills it with SIGKILL, and
     * returns the acknowledged event ids that the store does not have. */
    async function lostAfterKill(concurrency: number, count: number): Promise<string[]> {
      if (!current.fixture.spawnAppender)
        throw new Error(`${current.harness.name} is durable but cannot start an appender process`);
      const child = current.fixture.spawnAppender(`crash${randomUUID().slice(0, 8)}`, concurrency);
      const acked: string[] = [];
      let buffered = '';
      await new Promise<void>((done, fail) => {
        child.on('error', fail);
        child.on('exit', (code) =>
          acked.length < count ? fail(new Error(`appender exited early (${code})`)) : undefined,
        );
        child.stdout!.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          acked.push(...lines);
          if (acked.length >= count) {
            child.kill('SIGKILL');
            done();
          }
        });
      });
      await new Promise((r) =>
        child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r),
      );
      const reader = await current.fixture.openAnother();
      try {
        const stored = new Set((await reader.readAll()).map((e) => e.id));
        return acked.filter((id) => !stored.has(id));
      } finally {
        await reader.close();
      }
    }

    it('keeps every acknowledged append when the writing process is killed with SIGKILL', async () => {
      expect(await lostAfterKill(1, 200)).toEqual([]);
    });

    it('keeps every acknowledged append when the process is killed in the middle of a group', async () => {
      // 32 appends in flight at once: the kill lands while groups are being committed.
      expect(await lostAfterKill(32, 2000)).toEqual([]);
    });
  });
}
