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
      ['application/json; charset=latin1', '{}'],
      ['application/x-www-form-urlencoded', 'a=%zz'],
    ] as const) {
      expect(() => parseBody(type, Buffer.from(text))).toThrow(UnreadableBody);
    }
    expect(parseBody(undefined, Buffer.alloc(0)).size).toBe(0);
    expect(parseBody('Application/JSON; Charset="UTF-8"', Buffer.from('{"a":"1"}')).get('a')).toEqual(['1']);
  });
});
