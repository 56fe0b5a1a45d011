import { REDACTED, redactFields, redactUrl } from './redact';

describe('redactFields', () => {
  it('returns primitives unchanged', () => {
    expect(redactFields('x')).toBe('x');
    expect(redactFields(5)).toBe(5);
    expect(redactFields(null)).toBeNull();
  });
});

describe('redactUrl', () => {
  it('keeps email and packageid and redacts token', () => {
    expect(redactUrl('/newInstance?email=a%40b.c&token=SECRET&packageid=x')).toBe(
      `/newInstance?email=a%40b.c&token=${REDACTED}&packageid=x`,
    );
  });

  it('redacts apikey', () => {
    const out = redactUrl('/accounts?apikey=K3Y&email=a%40b.c');
    expect(out).toBe(`/accounts?apikey=${REDACTED}&email=a%40b.c`);
    expect(out).not.toContain('K3Y');
  });

  it('redacts a percent-encoded secret parameter name', () => {
    const out = redactUrl('/x?%74oken=ENC-SECRET');
    expect(out).not.toContain('ENC-SECRET');
    expect(out).toBe(`/x?%74oken=${REDACTED}`);
  });

  it('redacts secret parameter names case-insensitively', () => {
    expect(redactUrl('/x?ApiKey=A&Token=B')).toBe(`/x?ApiKey=${REDACTED}&Token=${REDACTED}`);
  });

  it('returns a URL without a query unchanged', () => {
    expect(redactUrl('/newInstance')).toBe('/newInstance');
    expect(redactUrl('/a/b/c')).toBe('/a/b/c');
  });

  it('returns a query without secrets unchanged', () => {
    expect(redactUrl('/q?email=a%40b.c&packageid=monthly')).toBe('/q?email=a%40b.c&packageid=monthly');
  });

  it('leaves a secret-named parameter without a value as it is', () => {
    expect(redactUrl('/q?token&x=1')).toBe('/q?token&x=1');
  });

  it('does not throw on a malformed percent-encoding in a name', () => {
    expect(redactUrl('/q?%E0%A4%A=1&token=T')).toBe(`/q?%E0%A4%A=1&token=${REDACTED}`);
  });
});

describe('redactUrl with secrets in the path', () => {
  it('redacts anything shaped like one of the service secrets, wherever it stands', () => {
    expect(redactUrl('/webhook/gwt_abc-DEF_123')).toBe('/webhook/[REDACTED]');
    expect(redactUrl('/x?note=whsec_QUJD%2B%3D&email=a%40b.c')).toBe('/x?note=[REDACTED]&email=a%40b.c');
  });
});
