import { setTimeout as sleep } from 'node:timers/promises';
import { GroupCommit } from './group-commit';

/** A commit that takes `ms`, noting when each group was cut and what it held. */
function slowCommit(ms: number) {
  const cuts: Array<{ at: number; group: readonly string[] }> = [];
  const commit = async (group: readonly string[]) => {
    cuts.push({ at: performance.now(), group });
    await sleep(ms);
    return group.map((request) => ({ result: request.toUpperCase() }));
  };
  return { cuts, commit };
}

describe('GroupCommit', () => {
  it('puts the requests of one turn in one group and answers each', async () => {
    const { cuts, commit } = slowCommit(1);
    const groups = new GroupCommit(commit);
    await expect(Promise.all([groups.submit('a'), groups.submit('b')])).resolves.toEqual(['A', 'B']);
    expect(cuts.map((c) => c.group)).toEqual([['a', 'b']]);
    expect(groups.stats).toEqual({ requests: 2, commits: 1 });
  });

  it('cuts the requests that came during a commit no sooner than the interval after the group before', async () => {
    const { cuts, commit } = slowCommit(5);
    const groups = new GroupCommit(commit, undefined, () => 60);
    const first = groups.submit('a');
    // Arrive while 'a' is being committed, one after the other.
    await sleep(2);
    const later = [groups.submit('b')];
    await sleep(10);
    later.push(groups.submit('c'));
    await expect(Promise.all([first, ...later])).resolves.toEqual(['A', 'B', 'C']);
    expect(cuts.map((c) => c.group)).toEqual([['a'], ['b', 'c']]);
    // Noted by the commit a few microseconds after each cut.
    expect(cuts[1].at - cuts[0].at).toBeGreaterThanOrEqual(59.9);
  });

  it('asks for the interval before each cut', async () => {
    const { cuts, commit } = slowCommit(5);
    let interval = 60_000;
    const groups = new GroupCommit(commit, undefined, () => interval);
    const first = groups.submit('a');
    await sleep(2);
    // Came during a commit, but the interval is 0 by the time it is cut.
    interval = 0;
    await expect(Promise.all([first, groups.submit('b')])).resolves.toEqual(['A', 'B']);
    expect(cuts.map((c) => c.group)).toEqual([['a'], ['b']]);
  });

  it('does not hold back a request that finds nothing being committed', async () => {
    const { cuts, commit } = slowCommit(1);
    // An interval no test would wait for: a client waiting for each answer never meets it.
    const groups = new GroupCommit(commit, undefined, () => 60_000);
    for (const request of ['a', 'b', 'c']) await expect(groups.submit(request)).resolves.toBe(request.toUpperCase());
    expect(cuts.map((c) => c.group)).toEqual([['a'], ['b'], ['c']]);
  });

  it('fails every request of a group whose commit throws, and goes on with the next', async () => {
    let calls = 0;
    const groups = new GroupCommit(async (group: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('disk gone');
      return group.map((request) => ({ result: request }));
    });
    const failed = [groups.submit('a'), groups.submit('b')];
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: new Error('disk gone') },
      { status: 'rejected', reason: new Error('disk gone') },
    ]);
    await expect(groups.submit('c')).resolves.toBe('c');
  });
});
