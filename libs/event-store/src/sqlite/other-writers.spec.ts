import { setTimeout as sleep } from 'node:timers/promises';
import { OtherWriters } from './other-writers';

describe('OtherWriters', () => {
  it('counts another writer from a change of the data version between two looks', () => {
    let version = 7;
    const others = new OtherWriters(() => version);
    others.look();
    // The first look has nothing to compare with.
    expect(others.writing).toBe(false);
    others.look();
    expect(others.writing).toBe(false);
    version = 8;
    others.look();
    expect(others.writing).toBe(true);
  });

  it('stops counting them once no change was seen for its window', async () => {
    let version = 1;
    const others = new OtherWriters(() => version, 30);
    others.look();
    version = 2;
    others.look();
    expect(others.writing).toBe(true);
    await sleep(40);
    others.look();
    expect(others.writing).toBe(false);
  });
});
