import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ApiProcess,
  createAccount,
  expectFailure,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  WebhookReceiver,
} from '@gw/testing';
import { launchChromium, screenshot, until } from './support/browser';

// The dashboard of docs/api.md section 10, driven in a real browser against the real service: the
// API (account and instance hosts, embedded store), the notifier and a webhook receiver, all on
// ephemeral loopback ports. Each test is one flow and goes on from where the one before left the
// page; what it asserts is what the service then holds, seen through the API itself.

const INTERNAL_TOKEN = 'dashboard-browser-internal-token-0123456789';
/** Local plain-http receivers are allowed for tests only (docs/api.md section 6, Targets). */
const ENV = {
  INTERNAL_TOKEN,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};

let api: ApiProcess;
let notifier: NotifierProcess;
let receiver: WebhookReceiver;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: { email: string; apikey: string };
/** Every URL the page requested, to check it talks to the service alone. */
const requested: string[] = [];

/** The instance made before signing in (trial: its expiry is close), and the one made in the page. */
let trial: { instanceid: string; token: string };
let made: { instanceid: string; token: string };

const hookUrl = () => receiver.url('/hook');
const status = (instance: { instanceid: string; token: string }) => postJson(api.apiUrl, '/getWebhookStatus', instance);
const listed = async (): Promise<any[]> =>
  expectSuccess(await get(api.accountUrl, '/listInstances', account)).instances;
const row = (instanceid: string) => page.locator(`tr[data-instance="${instanceid}"]`);
const button = (name: string) => page.getByRole('button', { name, exact: true });
/** The instance view's delivery log, by its table caption (the notifications table has rows too). */
const deliveryLog = () => page.getByRole('table', { name: 'Latest delivery attempts', exact: true });

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  api = await ApiProcess.start({ env: ENV });
  notifier = await NotifierProcess.start(api.dataDir, ENV);
  account = createAccount(api.dataDir, 'dashboard@example.com');
  trial = expectSuccess(
    await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
  );
  expectSuccess(await postJson(api.apiUrl, '/webhook', { ...trial, webhookUrl: hookUrl() }));
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('request', (r) => requested.push(r.url()));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await notifier?.stop();
  await api?.stop();
  api?.removeData();
  await receiver?.stop();
});

describe('the dashboard', () => {
  it('is served by the account host, with its labelled sign-in fields', async () => {
    const answer = await page.goto(`${api.accountUrl}/`);
    expect(answer?.status()).toBe(200);
    const headers = answer!.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    for (const label of ['E-mail', 'API key', 'Instance ID', 'Token'])
      await page.getByLabel(label, { exact: true }).waitFor();
    await button('Sign in').waitFor();
    await button('Open instance').waitFor();
    await screenshot(page, 'sign-in');
  });

  it('says why a sign-in is refused, in words next to the code', async () => {
    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('API key', { exact: true }).fill('gwk_not-the-key');
    await button('Sign in').click();
    const alert = page.getByRole('alert');
    await alert.getByText('0003').waitFor();
    expect(await alert.textContent()).toContain('account authentication failed: unknown e-mail or wrong API key');
    await screenshot(page, 'sign-in-refused');
  });

  it('signs in with the keyboard alone and lists the instances, warning of a close expiry', async () => {
    await page.getByLabel('API key', { exact: true }).fill('');
    await page.getByLabel('E-mail', { exact: true }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.apikey);
    await page.keyboard.press('Enter');
    const trialRow = row(trial.instanceid);
    await trialRow.waitFor();
    const text = await trialRow.textContent();
    expect(text).toContain('trial');
    expect(text).toContain('Active');
    expect(text).toContain('renew soon');
    expect(text).toContain(hookUrl());
    expect(await trialRow.locator('td').nth(6).textContent()).toBe('On');
    await screenshot(page, 'instances');
  });

  it('creates an instance from a package choice and shows its token once, with a copy button', async () => {
    await button('New instance').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('monthly').check();
    await screenshot(page, 'new-instance');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const tokenField = page.getByLabel('New token', { exact: true });
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).toMatch(/\S/);
    // Set as the field's value, never as an attribute: the token is not in the page's markup.
    expect(await tokenField.getAttribute('value')).toBeNull();
    const instanceid = (await page.locator('h1 code').textContent()) ?? '';
    made = { instanceid, token };
    expect((await listed()).find((i) => i.instanceid === instanceid)?.packageid).toBe('monthly');
    expectSuccess(await status(made));
    await page.getByRole('button', { name: 'Copy', exact: true }).first().click();
    await page.getByText('Copied').first().waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await screenshot(page, 'instance-created');
  });

  it('registers the webhook URL with chosen event kinds, and shows the signing secret', async () => {
    await page.getByLabel('Webhook URL', { exact: true }).fill(hookUrl());
    await page.getByLabel(/^Own messages/).uncheck();
    await page.getByLabel(/^Instance notices/).check();
    await button('Save webhook').click();
    await page.getByText('Webhook saved.').waitFor();
    const now = expectSuccess(await status(made));
    expect(now).toMatchObject({ webhookUrl: hookUrl(), enabled: true, events: ['messages', 'acks', 'instance'] });
    expect(await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toBe(
      now.signingSecret,
    );
  });

  it('rotates the signing secret', async () => {
    const before = expectSuccess(await status(made)).signingSecret;
    await button('Rotate secret').click();
    await page.getByText(/The previous one also signs until/).waitFor();
    const after = expectSuccess(await status(made)).signingSecret;
    expect(after).not.toBe(before);
    expect(await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toBe(after);
  });

  it('sends a test that the receiver gets, and shows it in the delivery log', async () => {
    await button('Send test').click();
    await page.getByText(/^Delivered: the receiver answered HTTP 200/).waitFor();
    const test = receiver.requests.find((r) => r.json?.test === true && r.json?.instanceId === made.instanceid);
    expect(test?.webhookId).toMatch(/^test_/);
    const logRow = deliveryLog().locator('tbody tr').first();
    await logRow.getByText('Test', { exact: true }).waitFor();
    expect(await logRow.textContent()).toContain('HTTP 200');
  });

  it('lists the notifications and redelivers one with the same webhook-id', async () => {
    const ingest = await request(`${api.internalUrl}/instances/${made.instanceid}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
      body: JSON.stringify({
        id: 'wamid.dashboard.1',
        chatId: '5511999999999@c.us',
        from: '5511999999999@c.us',
        body: 'Hi!',
        time: 1_767_225_600,
      }),
    });
    expect(ingest.status).toBe(202);
    const first = await until('the notification', () =>
      receiver.requests.find((r) => r.json?.instanceId === made.instanceid && r.json?.sequence === 1 && r.delivered),
    );
    await until(
      'the delivery to be recorded',
      async () =>
        expectSuccess(await postJson(api.apiUrl, '/getNotifications', made)).notifications[0]?.state === 'delivered',
    );
    await button('Refresh notifications').click();
    const notification = page.locator('tr[data-sequence="1"]');
    await notification.getByText('Delivered', { exact: true }).waitFor();
    expect(await notification.textContent()).toContain('1 message');
    await notification.getByRole('button', { name: 'Redeliver', exact: true }).click();
    await page.getByText('Queued 1 notification for delivery again.').waitFor();
    await until('the redelivery', () => receiver.requests.filter((r) => r.webhookId === first.webhookId).length === 2);
    await until(
      'both attempts of #1 to be logged',
      async () =>
        expectSuccess(await postJson(api.apiUrl, '/getWebhookLogs', made)).attempts.filter(
          (a: any) => !a.test && a.sequence === 1,
        ).length === 2,
    );
    await button('Refresh log').click();
    const attemptsOfFirst = deliveryLog()
      .locator('tbody tr')
      .filter({ has: page.getByRole('cell', { name: '#1', exact: true }) });
    await until('two attempts of #1 in the delivery log', async () => (await attemptsOfFirst.count()) === 2);
    for (const text of await attemptsOfFirst.allTextContents()) expect(text).toContain('HTTP 200');
    await screenshot(page, 'instance');
  });

  it('switches delivery off by clearing the webhook URL', async () => {
    await button('Switch delivery off').click();
    await page.getByText('Delivery switched off; the webhook URL is no longer registered.').waitFor();
    expect(expectSuccess(await status(made))).toMatchObject({ webhookUrl: '', enabled: false });
    await page.getByText('Delivery is off: no webhook URL is registered.').waitFor();
  });

  it('renews an instance with a package choice', async () => {
    const before = (await listed()).find((i) => i.instanceid === made.instanceid);
    await button('← Instances').click();
    // Row buttons are named after their instance, so they are found without the row.
    await button(`Renew instance ${made.instanceid}`).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('annual').check();
    await screenshot(page, 'renew');
    await dialog.getByRole('button', { name: 'Renew', exact: true }).click();
    await page.getByText(/^Renewed /).waitFor();
    const after = (await listed()).find((i) => i.instanceid === made.instanceid);
    expect(after.packageid).toBe('annual');
    expect(Date.parse(after.expiresAt) - Date.parse(before.expiresAt)).toBeGreaterThanOrEqual(
      365 * 86_400_000 - 60_000,
    );
    expect(await row(made.instanceid).textContent()).toContain('annual');
  });

  it('resets a token: the new one is shown once, the old one is refused', async () => {
    await button(`Reset token of instance ${made.instanceid}`).click();
    await screenshot(page, 'reset-token');
    await page.getByRole('dialog').getByRole('button', { name: 'Reset token', exact: true }).click();
    const tokenField = page.getByLabel('New token', { exact: true });
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).not.toBe(made.token);
    expectFailure(await status(made), ['0006']);
    made = { ...made, token };
    expectSuccess(await status(made));
    await page.getByText('The previous token no longer works.').waitFor();
    await screenshot(page, 'token-reset');
  });

  it('deletes an instance only once the deletion is confirmed', async () => {
    await button('← Instances').click();
    await button(`Delete instance ${trial.instanceid}`).click();
    await screenshot(page, 'delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await listed()).map((i) => i.instanceid)).toContain(trial.instanceid);
    await button(`Delete instance ${trial.instanceid}`).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete instance', exact: true }).click();
    await page.getByText(`Deleted instance ${trial.instanceid}.`).waitFor();
    expect((await listed()).map((i) => i.instanceid)).not.toContain(trial.instanceid);
    expect(await row(trial.instanceid).count()).toBe(0);
    expectFailure(await status(trial), ['0006']);
  });

  it('opens one instance by its id and token, and says why a wrong token is refused', async () => {
    await button('Sign out').click();
    await page.getByLabel('Instance ID', { exact: true }).fill(made.instanceid);
    await page.getByLabel('Token', { exact: true }).fill('gwt_wrong');
    await button('Open instance').click();
    const alert = page.getByRole('alert');
    await alert.getByText('0006').waitFor();
    expect(await alert.textContent()).toContain('instance authentication failed');
    await page.getByLabel('Token', { exact: true }).fill(made.token);
    await button('Open instance').click();
    await page.locator('h1 code', { hasText: made.instanceid }).waitFor();
    await button('Close instance').waitFor();
    await page.getByText('Delivery is off: no webhook URL is registered.').waitFor();
  });

  it('labels every field, keeps credentials out of cookies, storage and the URL, and talks to the service alone', async () => {
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input, select, textarea')].filter((e) => e.labels.length === 0 && !e.getAttribute('aria-label')).length`,
    );
    expect(unlabelled).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(page.url()).toBe(`${api.accountUrl}/`);
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([api.accountUrl, api.apiUrl].sort());
    for (const url of requested) {
      for (const secret of [account.apikey, made.token])
        expect(url.includes(secret) && !url.startsWith(api.accountUrl)).toBe(false);
    }
  });
});
