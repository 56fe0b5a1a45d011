import { randomBytes } from 'node:crypto';
import { KEY_BYTES } from './aead';
import { dataKey } from './data-keys';
import { keyRefOfChecked, knownKeyRef, openFields, sealedKeyRef, sealFields } from './sealed-value';

const key = dataKey('inst-1.20260304.0a1b2c3d', randomBytes(KEY_BYTES));
const fields = ['5511999999999@c.us', '5511888888888@c.us', 'Ana', 'Olá ✓'];

describe('sealed values (pd2)', () => {
  it('names its key and opens for its own kind only', () => {
    const sealed = sealFields(key, 'message', fields);
    expect(sealed).toMatch(/^pd2\.20260304\.0a1b2c3d\.[A-Za-z0-9_-]+$/);
    expect(sealedKeyRef(sealed)).toBe('20260304.0a1b2c3d');
    expect(knownKeyRef(sealed, new Map([['20260304.0a1b2c3d', key]]))).toBe('20260304.0a1b2c3d');
    expect(knownKeyRef(sealed, new Map())).toBeUndefined();
    expect(keyRefOfChecked(sealed)).toBe('20260304.0a1b2c3d');
    expect(openFields(key, 'message', sealed)).toEqual(fields);
    // The same four fields sealed as an ack's (the count check alone would not refuse them): the
    // kind is authenticated with the value.
    expect(openFields(key, 'ack', sealed)).toBeUndefined();
    expect(openFields(key, 'message', sealFields(key, 'ack', fields))).toBeUndefined();
    expect(openFields(key, 'ack', sealFields(key, 'ack', ['5511777777777@c.us']))).toEqual(['5511777777777@c.us']);
  });

  it('is not the form for a pd1 value, another prefix or a malformed key reference', () => {
    const sealed = sealFields(key, 'message', fields);
    for (const other of [
      `pd1.${sealed.slice(4)}`,
      `v1.${sealed.slice(4)}`,
      sealed.replace('.0a1b2c3d.', '.0A1B2C3D.'),
      'pd2.2026030.0a1b2c3d.x',
      42,
      undefined,
    ]) {
      expect(sealedKeyRef(other)).toBeUndefined();
      expect(knownKeyRef(other, new Map([['20260304.0a1b2c3d', key]]))).toBeUndefined();
    }
  });

  it('refuses a field that is not a string', () => {
    expect(() => sealFields(key, 'message', ['a', 'b', undefined as never, 'd'])).toThrow(
      /personal field of a message is not a string/,
    );
  });
});
