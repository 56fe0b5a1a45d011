import type { Browser, Page } from 'playwright-core';
import { ApiProcess, createAccount, expectSuccess, get, NotifierProcess, postJson, WebhookReceiver } from '@gw/testing';
import { launchChromium, screenshot, until } from './support/browser';

// The receiver's options of docs/api.md section 12 in the dashboard, in a real browser against the
// real service: headers by name with a way to replace them, the signature scheme, the public key with
// a copy button, and the endpoint's health on the instance view.

const ENV = {
  INTERNAL_TOKEN: 'dashboard-options-internal-token-0123456789',
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};
const HEADER_VALUE = 'Bearer dash-s3cret-value';

let api: ApiProcess;
let notifier: NotifierProcess;
let receiver: WebhookReceiver;
let browser: Browser;
let page: Page;
let instance: { instanceid: string; token: string };

const status = async () => expectSuccess(await postJson(api.apiUrl, '/getWebhookStatus', instance));
const button = (name: string) => page.getByRole('button', { name, exact: true });

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  api = await ApiProcess.start({ env: ENV });
  notifier = await NotifierProcess.start(api.dataDir, ENV);
  const account = createAccount(api.dataDir, 'options@example.com');
  instance = expectSuccess(
    await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'monthly' }),
  );
  expectSuccess(await postJson(api.apiUrl, '/webhook', { ...instance, webhookUrl: receiver.url('/hook') }));
  browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${api.accountUrl}/`);
  await page.getByLabel('Instance ID', { exact: true }).fill(instance.instanceid);
  await page.getByLabel('Token', { exact: true }).fill(instance.token);
  await button('Open instance').click();
  await page.locator('h1 code', { hasText: instance.instanceid }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await notifier?.stop();
  await api?.stop();
  api?.removeData();
  await receiver?.stop();
});

describe("the dashboard's receiver options", () => {
  it('replaces the headers, then lists their names only; the receiver gets the values', async () => {
    await page.getByText('No headers of your own.').waitFor();
    await page.getByLabel('New headers (JSON object)').fill(JSON.stringify({ Authorization: HEADER_VALUE }));
    await button('Replace headers').click();
    await page.getByText(/^Headers replaced/).waitFor();
    expect((await status()).webhookHeaders).toEqual({ Authorization: '***' });
    await page.getByRole('list', { name: 'Header names' }).getByText('Authorization').waitFor();
    expect(await page.getByLabel('New headers (JSON object)').inputValue()).toBe('');
    expect(await page.content()).not.toContain('dash-s3cret');

    await button('Send test').click();
    await page.getByText(/^Delivered: the receiver answered HTTP 200/).waitFor();
    const test = receiver.requests.find((r) => r.json?.test === true);
    expect(test?.headers['authorization']).toBe(HEADER_VALUE);

    await button('Remove all headers').click();
    await page.getByText('Headers removed.').waitFor();
    expect((await status()).webhookHeaders).toEqual({});
  });

  it('chooses Ed25519 and shows the public key with a copy button', async () => {
    expect(await page.getByRole('textbox', { name: 'Public key', exact: true }).isVisible()).toBe(false);
    await page.getByLabel(/^Ed25519/).check();
    await button('Use this scheme').click();
    await page.getByText(/^Signature scheme saved/).waitFor();
    const now = await status();
    expect(now.signatureScheme).toBe('ed25519');
    const key = page.getByRole('textbox', { name: 'Public key', exact: true });
    expect(await key.inputValue()).toBe(now.signingPublicKey);
    await page.locator('.field', { has: key }).getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(now.signingPublicKey);
    await screenshot(page, 'receiver-options');
  });

  it('shows the endpoint health on the instance view', async () => {
    await page.reload();
    await page.getByLabel('Instance ID', { exact: true }).fill(instance.instanceid);
    await page.getByLabel('Token', { exact: true }).fill(instance.token);
    await button('Open instance').click();
    const health = page.getByLabel('Endpoint health');
    await until('the health line', async () =>
      /Receiver healthy; last success never\./.test((await health.textContent()) ?? ''),
    );
    expect((await status()).health).toEqual({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: null });
  });
});
