import { newEventId } from './ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix milliseconds a version 7 UUID carries in its first 48 bits. */
const millisOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('new event ids', () => {
  it('are version 7 UUIDs carrying the time they were made', () => {
    const before = Date.now();
    const id = newEventId();
    const after = Date.now();
    expect(id).toMatch(V7);
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(after);
  });

  it('sort as text in the order of the milliseconds they were made in', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(newEventId());
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('differ when made in the same millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => V7.test(id))).toBe(true);
  });
});
