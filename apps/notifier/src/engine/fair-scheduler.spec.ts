import { originOf } from './delivery-loop';
import { FairScheduler, type DueInstance } from './fair-scheduler';

/** docs/api.md section 11: delivery slots shared across accounts, instances and endpoints. */

const due = (accountId: string, instanceId: string, endpoint = `https://${accountId}.example`): DueInstance => ({
  instanceId,
  accountId,
  endpoint,
});
const ids = (chosen: DueInstance[]) => chosen.map((c) => c.instanceId);

describe('the fair scheduler', () => {
  it('gives no account more than its share, however many of its instances are due', () => {
    const scheduler = new FairScheduler({ total: 10, perAccount: 3, perEndpoint: 100 });
    const x = Array.from({ length: 50 }, (_, i) => due('x', `x${i}`));
    expect(scheduler.choose(x)).toHaveLength(3);
    // The rest of x waits; y's instance is due now and gets a slot at once.
    expect(ids(scheduler.choose([...x.slice(3), due('y', 'y1')]))).toEqual(['y1']);
    expect(scheduler.inFlight).toBe(4);
  });

  it('says whether an account or an endpoint could be given a slot now, exactly when choose would', () => {
    const scheduler = new FairScheduler({ total: 3, perAccount: 2, perEndpoint: 2 });
    const [x1, x2] = scheduler.choose([due('x', 'x1', 'https://a'), due('x', 'x2', 'https://b')]);
    // x is at its share: choose offers it nothing, and the loop need not offer its instances.
    expect(scheduler.accountFree('x')).toBe(false);
    expect(scheduler.choose([due('x', 'x3', 'https://c')])).toEqual([]);
    expect(scheduler.accountFree('y')).toBe(true);
    expect(scheduler.endpointFree('https://a')).toBe(true);
    const [y1] = scheduler.choose([due('y', 'y1', 'https://a')]);
    // Every slot taken: nobody is free, and https://a has its two requests.
    expect([scheduler.accountFree('y'), scheduler.accountFree('z'), scheduler.endpointFree('https://a')]).toEqual([
      false,
      false,
      false,
    ]);
    scheduler.finished(x1);
    expect([scheduler.accountFree('x'), scheduler.accountFree('z'), scheduler.endpointFree('https://a')]).toEqual([
      true,
      true,
      true,
    ]);
    scheduler.finished(x2);
    scheduler.finished(y1);
    expect(scheduler.inFlight).toBe(0);
  });

  it('offers a free slot to the account with the fewest requests in flight first', () => {
    const scheduler = new FairScheduler({ total: 4, perAccount: 4, perEndpoint: 100 });
    expect(ids(scheduler.choose([due('x', 'x1'), due('x', 'x2'), due('x', 'x3')]))).toEqual(['x1', 'x2', 'x3']);
    // One slot left: y, with none in flight, comes before x's fourth, listed first.
    expect(ids(scheduler.choose([due('x', 'x4'), due('y', 'y1')]))).toEqual(['y1']);
  });

  it('alternates between accounts with as many in flight, and between instances within an account', () => {
    const scheduler = new FairScheduler({ total: 6, perAccount: 6, perEndpoint: 100 });
    const chosen = scheduler.choose([
      due('x', 'x1'),
      due('x', 'x2'),
      due('x', 'x3'),
      due('y', 'y1'),
      due('y', 'y2'),
      due('y', 'y3'),
    ]);
    expect(chosen.map((c) => c.accountId)).toEqual(['x', 'y', 'x', 'y', 'x', 'y']);
    // Every slot is held; when x1 and y1 finish, the instances served longest ago come first.
    scheduler.finished(chosen[0]);
    scheduler.finished(chosen[1]);
    expect(ids(scheduler.choose([due('x', 'x9'), due('x', 'x1')]))).toEqual(['x9', 'x1']);
  });

  it('within an account, offers the instances served longest ago first, whatever order they come in', () => {
    const scheduler = new FairScheduler({ total: 2, perAccount: 2, perEndpoint: 100 });
    // Served in the order x3, x1, x2 (one at a time), then never-served x4 and x5.
    for (const instanceId of ['x3', 'x1', 'x2']) scheduler.finished(scheduler.choose([due('x', instanceId)])[0]);
    const offered = ['x2', 'x5', 'x1', 'x3', 'x4'].map((instanceId) => due('x', instanceId));
    const first = scheduler.choose(offered);
    // Never served first, in the order offered; then the one served longest ago.
    expect(ids(first)).toEqual(['x5', 'x4']);
    first.forEach((c) => scheduler.finished(c));
    expect(ids(scheduler.choose(offered.filter((c) => !ids(first).includes(c.instanceId))))).toEqual(['x3', 'x1']);
  });

  it('gives no endpoint more than its share, and lets the same account use another endpoint meanwhile', () => {
    const scheduler = new FairScheduler({ total: 10, perAccount: 10, perEndpoint: 2 });
    const slow = (i: number) => due('x', `x${i}`, 'https://slow.example');
    expect(ids(scheduler.choose([slow(1), slow(2), slow(3), due('x', 'x4', 'https://fast.example')]))).toEqual([
      'x1',
      'x2',
      'x4',
    ]);
  });

  it('holds a slot until finished, never more than the total', () => {
    const scheduler = new FairScheduler({ total: 2, perAccount: 2, perEndpoint: 2 });
    const [first, second] = scheduler.choose([due('a', 'a1'), due('b', 'b1'), due('c', 'c1')]);
    expect(scheduler.full).toBe(true);
    expect(scheduler.choose([due('c', 'c1')])).toEqual([]);
    scheduler.finished(first);
    expect(ids(scheduler.choose([due('c', 'c1')]))).toEqual(['c1']);
    scheduler.finished(second);
    expect(scheduler.inFlight).toBe(1);
  });
});

describe('the endpoint of a webhook URL', () => {
  it('is its scheme, host and port, lowercased, without user info, path or query', () => {
    expect(originOf('https://User:pw@Hooks.Example.com:8443/a/b?token=x#f')).toBe('https://hooks.example.com:8443');
    expect(originOf('https://hooks.example.com?x=1')).toBe('https://hooks.example.com');
    expect(originOf('http://[::1]:9000/x')).toBe('http://[::1]:9000');
    expect(originOf('not a url')).toBe('not a url');
  });
});
