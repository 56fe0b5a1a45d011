import { expectSuccess, get, postJson, request } from '@gw/testing';
import { screenshot, until } from './support/browser';
import { DashboardSession, INTERNAL_TOKEN, type Credentials } from './support/dashboard-session';

// The dashboard's instance view (docs/api.md section 10) in a real browser against the real service
// (support/dashboard-session.ts): the webhook settings, the signing secret, a test, the notifications
// and the delivery log of an instance opened by its id and token. Each test goes on from where the one
// before left the page; what it asserts is what the service then holds, seen through the API itself.

let s: DashboardSession;
/** An instance made through the API and opened in the page. */
let made: Credentials;

beforeAll(async () => {
  s = await DashboardSession.start();
  const { instanceid, token } = expectSuccess(
    await get(s.api.accountUrl, '/newInstance', {
      email: s.account.email,
      token: s.account.apikey,
      packageid: 'monthly',
    }),
  );
  made = { instanceid, token };
  await s.page.goto(`${s.api.accountUrl}/`);
  await s.page.getByLabel('Instance ID', { exact: true }).fill(made.instanceid);
  await s.page.getByLabel('Token', { exact: true }).fill(made.token);
  await s.button('Open instance').click();
  await s.page.locator('h1 code', { hasText: made.instanceid }).waitFor();
}, 120_000);
afterAll(() => s?.stop());

describe('the dashboard', () => {
  it('registers the webhook URL with chosen event kinds, and shows the signing secret', async () => {
    await s.page.getByLabel('Webhook URL', { exact: true }).fill(s.hookUrl());
    await s.page.getByLabel(/^Own messages/).uncheck();
    await s.page.getByLabel(/^Instance notices/).check();
    await s.button('Save webhook').click();
    await s.page.getByText('Webhook saved.').waitFor();
    const now = expectSuccess(await s.status(made));
    expect(now).toMatchObject({ webhookUrl: s.hookUrl(), enabled: true, events: ['messages', 'acks', 'instance'] });
    expect(await s.page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toBe(
      now.signingSecret,
    );
  });

  it('rotates the signing secret', async () => {
    const before = expectSuccess(await s.status(made)).signingSecret;
    await s.button('Rotate secret').click();
    await s.page.getByText(/The previous one also signs until/).waitFor();
    const after = expectSuccess(await s.status(made)).signingSecret;
    expect(after).not.toBe(before);
    expect(await s.page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue()).toBe(after);
  });

  it('sends a test that the receiver gets, and shows it in the delivery log', async () => {
    await s.button('Send test').click();
    await s.page.getByText(/^Delivered: the receiver answered HTTP 200/).waitFor();
    const test = s.receiver.requests.find((r) => r.json?.test === true && r.json?.instanceId === made.instanceid);
    expect(test?.webhookId).toMatch(/^test_/);
    const logRow = s.deliveryLog().locator('tbody tr').first();
    await logRow.getByText('Test', { exact: true }).waitFor();
    expect(await logRow.textContent()).toContain('HTTP 200');
  });

  it('lists the notifications and redelivers one with the same webhook-id', async () => {
    const ingest = await request(`${s.api.internalUrl}/instances/${made.instanceid}/messages`, {
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
      s.receiver.requests.find((r) => r.json?.instanceId === made.instanceid && r.json?.sequence === 1 && r.delivered),
    );
    await until(
      'the delivery to be recorded',
      async () =>
        expectSuccess(await postJson(s.api.apiUrl, '/getNotifications', made)).notifications[0]?.state === 'delivered',
    );
    await s.button('Refresh notifications').click();
    const notification = s.page.locator('tr[data-sequence="1"]');
    await notification.getByText('Delivered', { exact: true }).waitFor();
    expect(await notification.textContent()).toContain('1 message');
    await notification.getByRole('button', { name: 'Redeliver', exact: true }).click();
    await s.page.getByText('Queued 1 notification for delivery again.').waitFor();
    await until(
      'the redelivery',
      () => s.receiver.requests.filter((r) => r.webhookId === first.webhookId).length === 2,
    );
    await until(
      'both attempts of #1 to be logged',
      async () =>
        expectSuccess(await postJson(s.api.apiUrl, '/getWebhookLogs', made)).attempts.filter(
          (a: any) => !a.test && a.sequence === 1,
        ).length === 2,
    );
    await s.button('Refresh log').click();
    const attemptsOfFirst = s
      .deliveryLog()
      .locator('tbody tr')
      .filter({ has: s.page.getByRole('cell', { name: '#1', exact: true }) });
    await until('two attempts of #1 in the delivery log', async () => (await attemptsOfFirst.count()) === 2);
    for (const text of await attemptsOfFirst.allTextContents()) expect(text).toContain('HTTP 200');
    await screenshot(s.page, 'instance');
  });

  it('switches delivery off by clearing the webhook URL', async () => {
    await s.button('Switch delivery off').click();
    await s.page.getByText('Delivery switched off; the webhook URL is no longer registered.').waitFor();
    expect(expectSuccess(await s.status(made))).toMatchObject({ webhookUrl: '', enabled: false });
    await s.page.getByText('Delivery is off: no webhook URL is registered.').waitFor();
  });

  it('keeps the forms disabled until the status arrives, so that it cannot replace what was typed', async () => {
    await s.button('Close instance').click();
    // Opening checks the credentials with one status call; the view then reads it again to fill its
    // forms. That second answer is held back until the test has looked at the page.
    let calls = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = new Promise<void>((arrived) =>
      s.page.route('**/getWebhookStatus', async (route) => {
        if (++calls === 2) {
          arrived();
          await released;
        }
        await route.continue();
      }),
    );
    await s.page.getByLabel('Instance ID', { exact: true }).fill(made.instanceid);
    await s.page.getByLabel('Token', { exact: true }).fill(made.token);
    await s.button('Open instance').click();
    await held;
    const url = s.page.getByLabel('Webhook URL', { exact: true });
    const waiting = [url, s.button('Save webhook'), s.button('Rotate secret'), s.button('Replace headers')];
    for (const control of waiting) expect(await control.isDisabled()).toBe(true);
    release();
    await s.page.getByText('Delivery is off: no webhook URL is registered.').waitFor();
    for (const control of waiting) expect(await control.isEnabled()).toBe(true);
    await s.page.unroute('**/getWebhookStatus');
  });
});
