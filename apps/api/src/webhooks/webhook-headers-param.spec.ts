import { parseHeaders } from './webhook-headers-param';

// docs/api.md section 12: what a webhookHeaders text may hold, read from the text itself.
describe('webhookHeaders', () => {
  it('keeps names and values exactly as given, in order, whitespace and escapes of JSON allowed', () => {
    expect(parseHeaders('{\n  "Authorization": "Bearer a b",\n  "X-N\\u0031": "7"\n}')).toEqual({
      pairs: [
        ['Authorization', 'Bearer a b'],
        ['X-N1', '7'],
      ],
      problems: [],
    });
    expect(parseHeaders('{}')).toEqual({ pairs: [], problems: [] });
  });

  it('sees a repeated name, in any case, that JSON.parse would drop, and says which', () => {
    const { problems } = parseHeaders('{"X-A": "1", "Nested": "{\\"x-a\\": 2}", "x-a": "3"}');
    expect(problems).toEqual(['header "x-a": the name is given more than once']);
  });

  it('reports every problem at once, quoting names but never a value', () => {
    const { problems } = parseHeaders(
      JSON.stringify({ Host: 'secret-1', 'a b': 'secret-2', 'X-Obj': { v: 'secret-3' }, 'X-Lf': 'secret-4\n' }),
    );
    expect(problems).toEqual([
      'header "Host": this name is set by the service and cannot be given',
      'header number 2: a name is 1 to 64 token characters (no space or colon)',
      'header "X-Obj": the value must be a string',
      'header "X-Lf": the value must be visible ASCII characters and spaces only',
    ]);
    expect(problems.join(' ')).not.toContain('secret');
  });

  it('refuses what is not a JSON object', () => {
    for (const text of ['[]', 'null', '"x"', '{"a":', ''])
      expect(parseHeaders(text).problems).toEqual(['must be a JSON object of header names and values']);
  });
});
