import { loadConfig, type WebhooksConfig } from '@gw/config';
import { WebhookTargetPolicy, type HostLookup } from './webhook-target-policy';

const config = (env: Record<string, string> = {}): WebhooksConfig =>
  loadConfig({ NODE_ENV: 'test', ...env }, '/tmp').webhooks;
const never: HostLookup = () => new Promise(() => undefined);
const resolvesTo =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses;
const fails: HostLookup = async () => {
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

/** The one reason: it names neither the address, nor its kind (loopback…), nor the host. */
const NOT_PUBLIC = 'webhookUrl is not a public address';

describe('webhook target policy', () => {
  it('accepts a name whose lookup does not answer within DNS_TIMEOUT_MS, and returns in about that time', async () => {
    const policy = new WebhookTargetPolicy(config({ DNS_TIMEOUT_MS: '150' }), never);
    const started = Date.now();
    await expect(policy.resolutionProblem('https://slow.example/hook')).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('accepts a name that does not resolve; delivery checks the address again', async () => {
    await expect(
      new WebhookTargetPolicy(config(), fails).resolutionProblem('https://nowhere.invalid/'),
    ).resolves.toBeNull();
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const policy = new WebhookTargetPolicy(config(), resolvesTo('8.8.8.8', '10.1.2.3'));
    await expect(policy.resolutionProblem('https://mixed.example/')).resolves.toBe(NOT_PUBLIC);
  });

  it('accepts a name whose addresses are all public', async () => {
    const policy = new WebhookTargetPolicy(config(), resolvesTo('8.8.8.8', '2606:4700:4700::1111'));
    await expect(policy.resolutionProblem('https://public.example/')).resolves.toBeNull();
  });

  it('judges IP literals without a lookup, IPv6 in brackets included', async () => {
    const policy = new WebhookTargetPolicy(config(), never);
    await expect(policy.resolutionProblem('https://[::ffff:127.0.0.1]/x')).resolves.toBe(NOT_PUBLIC);
    await expect(policy.resolutionProblem('https://169.254.169.254/latest')).resolves.toBe(NOT_PUBLIC);
  });

  it('lifts the address check with ALLOW_PRIVATE_WEBHOOK_TARGETS and the https rule with ALLOW_HTTP_WEBHOOKS', async () => {
    const open = new WebhookTargetPolicy(
      config({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: 'true' }),
      never,
    );
    await expect(open.resolutionProblem('https://127.0.0.1/x')).resolves.toBeNull();
    expect(open.formProblem('http://127.0.0.1:9000/x')).toBeNull();
    expect(new WebhookTargetPolicy(config(), never).formProblem('http://example.com/x')).toBe(
      'webhookUrl must be an https URL',
    );
  });

  it('refuses the forms the contract names', () => {
    const policy = new WebhookTargetPolicy(config(), never);
    expect(policy.formProblem('/relative/path')).toBe('webhookUrl must be an absolute https URL');
    expect(policy.formProblem('ftp://example.com/x')).toBe('webhookUrl must be an https URL');
    expect(policy.formProblem(`https://example.com/${'a'.repeat(2048)}`)).toBe(
      'webhookUrl must be at most 2048 characters',
    );
    expect(policy.formProblem('https://example.com/a b')).toContain('spaces');
    expect(policy.formProblem('https://example.com/ok?x=1')).toBeNull();
    // No authority after the slashes: WHATWG would take `path` (or `x`) for the host.
    for (const url of ['https:///path', 'https:////x', 'https://?x', 'https://#x'])
      expect(policy.formProblem(url)).toBe('webhookUrl must name a host');
    expect(policy.formProblem('https://8.8.8.8\\@127.0.0.1/')).toBe('webhookUrl must not contain a backslash');
    expect(policy.formProblem('https://example.com/a\\b')).toBe('webhookUrl must not contain a backslash');
  });

  it('takes localhost names as loopback without a lookup, with or without a trailing dot', async () => {
    const policy = new WebhookTargetPolicy(config(), resolvesTo('8.8.8.8'));
    for (const url of [
      'https://localhost./x',
      'https://LOCALHOST/x',
      'https://api.localhost./x',
      'https://a.b.localhost:8443/',
    ]) {
      await expect(policy.resolutionProblem(url)).resolves.toBe(NOT_PUBLIC);
    }
    await expect(policy.resolutionProblem('https://localhost.example./x')).resolves.toBeNull();
  });
});
