import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Ack, Message } from '@gw/domain-inbox';
import { KEY_BYTES } from './aead';
import { dataKey } from './data-keys';
import { openedAckBytes, openedMessageBytes, sealAckWith, sealMessageWith } from './personal-fields';

const key = dataKey('inst-1.20260304.0a1b2c3d', randomBytes(KEY_BYTES));
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** Whatever a gateway may send: quotes, backslashes, control characters, emoji, lone surrogates. */
const text = fc.string({ unit: 'binary', maxLength: 200 });

describe('the size of a notified item, measured without opening it', () => {
  it("is a message's opened JSON size, at most 8 bytes over (an erased field opens as null)", () => {
    fc.assert(
      fc.property(
        text,
        text,
        text,
        text,
        text,
        fc.boolean(),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (id, chatId, from, senderName, body, fromMe, time) => {
          const message: Message = { id, chatId, from, fromMe, senderName, type: 'chat', body, time };
          const measured = openedMessageBytes(sealMessageWith(key, message));
          expect(measured - bytes(message)).toBeGreaterThanOrEqual(0);
          expect(measured - bytes(message)).toBeLessThanOrEqual(8);
          const erased = { ...message, chatId: null, from: null, senderName: null, body: null };
          expect(measured).toBeGreaterThanOrEqual(bytes(erased));
        },
      ),
    );
  });

  it("is an ack's opened JSON size, at most 2 bytes over", () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 2 ** 31 }), (id, chatId, time) => {
        const ack: Ack = { id, chatId, status: 'read', time };
        const measured = openedAckBytes(sealAckWith(key, ack));
        expect(measured - bytes(ack)).toBeGreaterThanOrEqual(0);
        expect(measured - bytes(ack)).toBeLessThanOrEqual(2);
        expect(measured).toBeGreaterThanOrEqual(bytes({ ...ack, chatId: null }));
      }),
    );
  });

  it('holds for a 60 KB body', () => {
    const message: Message = {
      id: 'wamid.1',
      chatId: 'c@c.us',
      from: 'f@c.us',
      fromMe: false,
      senderName: 'Ana',
      type: 'chat',
      body: 'é"'.repeat(20_000),
      time: 1,
    };
    expect(openedMessageBytes(sealMessageWith(key, message)) - bytes(message)).toBe(8);
  });
});
