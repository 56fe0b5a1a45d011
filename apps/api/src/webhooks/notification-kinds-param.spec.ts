import { isKindSet, parseKindSet } from './notification-kinds-param';

describe('the events parameter (docs/api.md 8.4)', () => {
  it.each([
    ['messages', ['messages']],
    ['acks,messages', ['messages', 'acks']],
    [' instance , ownMessages ,instance', ['ownMessages', 'instance']],
    ['acks,,acks,', ['acks']],
    ['instance,acks,ownMessages,messages', ['messages', 'ownMessages', 'acks', 'instance']],
  ])('%j chooses %j, in canonical order', (text, kinds) => {
    expect(isKindSet(text)).toBe(true);
    expect(parseKindSet(text)).toEqual(kinds);
  });

  it.each([
    '',
    ' ',
    ',',
    ' , ',
    'Messages',
    'messages,ack',
    'messages;acks',
    'messages acks',
    '\tmessages',
    'messages\u00a0',
  ])('%j is not a set of kinds', (text) => expect(isKindSet(text)).toBe(false));
});
