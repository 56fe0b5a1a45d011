import { mergeParams, parseBody, repeatedTopLevelKeys, UnreadableBody } from './request-params';

const json = (text: string) => parseBody('application/json', Buffer.from(text));

describe('request parameters', () => {
  it('finds keys repeated at the top level of a JSON object, and only there', () => {
    expect(repeatedTopLevelKeys('{"token":"a","token":"b"}')).toEqual(['token']);
    expect(repeatedTopLevelKeys('{ "a" : {"x":1,"x":2}, "b": ["a","a"], "c": "a:\\"b\\"" }')).toEqual([]);
    expect(repeatedTopLevelKeys('{"t\\u006fken":"a","token":"b"}')).toEqual(['token']);
  });

  it('reports a JSON key given twice as repeated, so the operation refuses it', () => {
    const { repeated } = mergeParams({ query: new Map(), body: json('{"token":"a","token":"b","instanceid":"i"}') }, [
      'token',
      'instanceid',
    ]);
    expect(repeated).toEqual(['token']);
  });

  it('takes the body over the query, and repeated names only count within the source used', () => {
    const query = new Map([
      ['token', ['q1', 'q2']],
      ['instanceid', ['qi']],
    ]);
    const merged = mergeParams({ query, body: json('{"token":"b"}') }, ['token', 'instanceid']);
    expect(merged).toEqual({ values: { token: 'b', instanceid: 'qi' }, repeated: [] });
  });

  it('refuses unreadable bodies with 0009 and reads an empty one as no body', () => {
    for (const [type, text] of [
      ['application/json', '{'],
      ['application/json', '[1]'],
      ['text/plain', 'x'],
      [undefined, 'x'],
      ['application/json; charset=no-such-charset', '{}'],
      ['application/x-www-form-urlencoded', 'a=%zz'],
    ] as const) {
      expect(() => parseBody(type, Buffer.from(text))).toThrow(UnreadableBody);
    }
    expect(parseBody(undefined, Buffer.alloc(0)).size).toBe(0);
    expect(parseBody('Application/JSON; Charset="UTF-8"', Buffer.from('{"a":"1"}')).get('a')).toEqual(['1']);
  });

  it('reads a body in the charset its content type names', () => {
    const utf16 = Buffer.from('{"label":"caf\u00e9 \u{1f600}"}', 'utf16le');
    expect(parseBody('application/json; charset=utf-16le', utf16).get('label')).toEqual(['caf\u00e9 \u{1f600}']);
    const latin1 = Buffer.from('{"label":"caf\u00e9"}', 'latin1');
    expect(parseBody('application/json; charset=ISO-8859-1', latin1).get('label')).toEqual(['caf\u00e9']);
    // Read as UTF-8, the same bytes are refused: \xe9 alone is not UTF-8.
    expect(() => parseBody('application/json', latin1)).toThrow(UnreadableBody);
    // A form's percent-escapes are bytes of its charset; its other bytes were decoded with the body.
    const form = Buffer.from('label=caf%E9+cr\u00e8me&token=t%25', 'latin1');
    const parsed = parseBody('application/x-www-form-urlencoded; charset=iso-8859-1', form);
    expect(parsed.get('label')).toEqual(['caf\u00e9 cr\u00e8me']);
    expect(parsed.get('token')).toEqual(['t%']);
    expect(() =>
      parseBody('application/x-www-form-urlencoded; charset=iso-8859-1', Buffer.from('label=%E', 'latin1')),
    ).toThrow(UnreadableBody);
    // A multibyte charset: Shift_JIS \u30a2 is 0x83 0x41, sent by browsers as `%83A`.
    const sjis = parseBody('application/x-www-form-urlencoded; charset=Shift_JIS', Buffer.from('label=%83A%83C'));
    expect(sjis.get('label')).toEqual(['\u30a2\u30a4']);
    // A label with spaces around it is the same charset.
    expect(parseBody('application/json; charset= "ISO-8859-1" ', latin1).get('label')).toEqual(['caf\u00e9']);
    // A form in UTF-16 is read as UTF-8, as browsers do.
    expect(parseBody('application/x-www-form-urlencoded; charset=utf-16le', Buffer.from('a=%C3%A9')).get('a')).toEqual([
      '\u00e9',
    ]);
    // us-ascii (and its aliases) is read as UTF-8 (WHATWG would read it as windows-1252).
    for (const ascii of ['us-ascii', 'ascii', 'iso646-us'])
      expect(parseBody(`application/json; charset=${ascii}`, Buffer.from('{"a":"\u00e9"}')).get('a')).toEqual([
        '\u00e9',
      ]);
  });
});
