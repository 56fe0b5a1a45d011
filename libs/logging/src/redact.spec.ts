import { REDACTED, redactEmails, redactFields, redactUrl } from './redact';

describe('redactFields', () => {
  it('returns primitives unchanged', () => {
    expect(redactFields('x')).toBe('x');
    expect(redactFields(5)).toBe(5);
    expect(redactFields(null)).toBeNull();
  });
});

describe('redactUrl', () => {
  it('keeps packageid and redacts email and token', () => {
    expect(redactUrl('/newInstance?email=a%40b.c&token=SECRET&packageid=x')).toBe(
      `/newInstance?email=${REDACTED}&token=${REDACTED}&packageid=x`,
    );
  });

  it('redacts apikey', () => {
    const out = redactUrl('/accounts?apikey=K3Y&email=a%40b.c');
    expect(out).toBe(`/accounts?apikey=${REDACTED}&email=${REDACTED}`);
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

  it('returns a query without secrets or personal data unchanged', () => {
    expect(redactUrl('/q?instanceid=abc&packageid=monthly')).toBe('/q?instanceid=abc&packageid=monthly');
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
    expect(redactUrl('/x?note=whsec_QUJD%2B%3D&email=a%40b.c')).toBe('/x?note=[REDACTED]&email=[REDACTED]');
  });
});

describe('e-mail addresses never reach a log (docs/api.md 9)', () => {
  it('redacts an address wherever it stands in a request path, plain or percent-encoded', () => {
    expect(redactUrl('/x/Ann.Lee+tag@Example.co.uk/y')).toBe(`/x/${REDACTED}/y`);
    expect(redactUrl('/x?note=ann%40example.com&packageid=trial')).toBe(`/x?note=${REDACTED}&packageid=trial`);
    expect(redactUrl('/x?EMail=not-an-address')).toBe(`/x?EMail=${REDACTED}`);
  });

  it('redacts fields named like an address, and addresses inside any string, errors included', () => {
    const error = new Error('no account for ann@example.com');
    const out = redactFields({
      email: 'x',
      accountEmail: 'y',
      note: 'from bob@example.org today',
      nested: [{ error }],
    }) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toMatch(/ann@|bob@/);
    expect(out).toMatchObject({ email: REDACTED, accountEmail: REDACTED, note: `from ${REDACTED} today` });
    expect(redactEmails('no @ here, nor a@b')).toBe('no @ here, nor a@b');
  });
});

describe('webhook URLs in logs', () => {
  const secretUrl = 'https://user:pa55word@hooks.example.com:8443/hook/s3cr3t-path?sig=q5ery#frag';

  it('shows a webhookUrl query parameter as scheme, host and port only', () => {
    const out = redactUrl(`/testWebhook?instanceid=i1&webhookUrl=${encodeURIComponent(secretUrl)}`);
    expect(out).toBe('/testWebhook?instanceid=i1&webhookUrl=https://hooks.example.com:8443');
    for (const part of ['user', 'pa55word', 's3cr3t-path', 'q5ery', 'frag']) expect(out).not.toContain(part);
    // Unencoded, with '+' for spaces, under another spelling of the name, or not a URL at all.
    expect(redactUrl('/webhook?webhookurl=https://h.example/a+b?c=d')).toBe('/webhook?webhookurl=https://h.example');
    expect(redactUrl('/webhook?webhookUrl=not%20a%20url%2Fs3cr3t')).toBe(`/webhook?webhookUrl=${REDACTED}`);
    expect(redactUrl('/webhook?webhookUrl=%zz-s3cr3t')).toBe(`/webhook?webhookUrl=${REDACTED}`);
    expect(redactUrl('/webhook?webhookUrl=')).toBe('/webhook?webhookUrl=');
  });

  it('shows a URL-valued log field as scheme, host and port only, at any depth', () => {
    expect(redactFields({ webhookUrl: secretUrl, nested: { targetUrl: 'http://[::1]:9000/x?y' } })).toEqual({
      webhookUrl: 'https://hooks.example.com:8443',
      nested: { targetUrl: 'http://[::1]:9000' },
    });
  });
});

describe("a receiver's own headers (docs/api.md section 12)", () => {
  it('are redacted from query strings and log fields, whatever their values', () => {
    const headers = encodeURIComponent('{"Authorization":"Bearer abc"}');
    expect(redactUrl(`/webhook?webhookHeaders=${headers}&webhookUrl=https%3A%2F%2Fa.example%2Fh`)).toBe(
      `/webhook?webhookHeaders=${REDACTED}&webhookUrl=https://a.example`,
    );
    expect(redactFields({ params: { webhookHeaders: '{"X-A":"v"}' } })).toEqual({
      params: { webhookHeaders: REDACTED },
    });
  });
});
