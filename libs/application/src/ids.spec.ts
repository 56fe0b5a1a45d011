import { createHash } from 'node:crypto';
import { nameBasedId, newEventId, timeOrderedNameBasedId } from './ids';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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

  it('differ when made one after the other, many in one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => V7.test(id))).toBe(true);
  });
});

describe('time-ordered name-based ids', () => {
  const at = '2026-11-28T09:00:00.123Z';

  it('are the same for the same name at the same moment, and differ by name', () => {
    const id = timeOrderedNameBasedId(at, 'notification-created|msg_1');
    expect(id).toMatch(V8);
    expect(timeOrderedNameBasedId(at, 'notification-created|msg_1')).toBe(id);
    expect(timeOrderedNameBasedId(at, 'notification-created|msg_2')).not.toBe(id);
  });

  it('carry the moment, and sort as text by it whatever the names', () => {
    const moments = [
      '2026-11-28T09:00:00.000Z',
      '2026-11-28T09:00:00.001Z',
      '2026-11-28T09:00:01.000Z',
      '2027-01-01T00:00:00.000Z',
    ];
    const ids = moments.map((moment, i) => timeOrderedNameBasedId(moment, `name-${moments.length - i}`));
    expect(ids.map(millisOf)).toEqual(moments.map((moment) => Date.parse(moment)));
    expect([...ids].sort()).toEqual(ids);
  });

  it('are plain name-based ids when the moment is not a time', () => {
    expect(timeOrderedNameBasedId('not a time', 'n')).toBe(nameBasedId('n'));
    expect(timeOrderedNameBasedId('1969-12-31T23:59:59.999Z', 'n')).toBe(nameBasedId('n'));
  });
});

// Ids derived from names must not change between releases: a message or a notification recorded
// again after an upgrade has to be the same event id, which the store keeps once.
/** RFC 9562's name-based layout over SHA-256, byte by byte: what nameBasedId has always made. */
function referenceNameBasedId(name: string): string {
  const bytes = createHash('sha256').update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('name-based ids across releases', () => {
  it('are the bytes of the reference construction, for any name', () => {
    for (let i = 0; i < 2000; i++) {
      const name = `message|${i.toString(36)}|${'é😀"'.repeat(i % 4)}`;
      expect(nameBasedId(name)).toBe(referenceNameBasedId(name));
    }
  });

  it('are the ids earlier releases derived from the same names', () => {
    expect(nameBasedId('message|ed6dfa36e5ad987df5ef5667|wamid.é1')).toBe('2dce584f-fac8-50fa-8296-010e7de1559d');
    expect(timeOrderedNameBasedId('2026-12-07T16:00:00.000Z', 'notification-created|msg_1')).toBe(
      '01a2513b-c000-8b32-add4-28764d4f18a9',
    );
  });
});
