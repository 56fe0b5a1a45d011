import type { Browser, Page } from 'playwright-core';
import {
  clearOfUtcMidnight,
  ApiProcess,
  createAccount,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  WebhookReceiver,
} from '@gw/testing';
import { launchChromium, screenshot, until } from './support/browser';

// The instance list of docs/api.md 13.1 and the usage chart of 13.3, in a real browser against the
// real service (API, notifier, receiver on loopback ports): pages of 50 walked with the pager, the
// label and state columns, the filters, a label set in a dialog, and an instance's last 30 days
// drawn by the page itself as SVG from getUsage.

const INTERNAL_TOKEN = 'dashboard-scale-internal-token-0123456789';
const ENV = {
  INTERNAL_TOKEN,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
  RETRY_SCHEDULE: '1,1',
};
const COUNT = 120;

let api: ApiProcess;
let notifier: NotifierProcess;
let receiver: WebhookReceiver;
let browser: Browser;
let page: Page;
let account: { email: string; apikey: string };
let ids: string[];
const requested: string[] = [];

const rowIds = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-instance')));
const button = (name: string) => page.getByRole('button', { name, exact: true });
const ingest = async (instanceid: string, kind: string, body: object) => {
  const answer = await request(`${api.internalUrl}/instances/${instanceid}/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(202);
};

beforeAll(async () => {
  // The chart's test reads back today's attempts made here: the file must not straddle midnight.
  await clearOfUtcMidnight(120_000);
  receiver = await WebhookReceiver.start();
  api = await ApiProcess.start({ env: ENV });
  notifier = await NotifierProcess.start(api.dataDir, ENV);
  account = createAccount(api.dataDir, 'scale@example.com');
  ids = [];
  for (let i = 0; i < COUNT; i++) {
    const label: Record<string, string> = i % 10 === 3 ? { label: 'eu' } : {};
    const made = expectSuccess(
      await get(api.accountUrl, '/newInstance', {
        email: account.email,
        token: account.apikey,
        packageid: 'monthly',
        ...label,
      }),
    );
    ids.push(made.instanceid);
    if (i === 0) {
      // The charted instance: one failed attempt, then a delivery, today.
      receiver.plan('/charted', [{ kind: 'status', status: 500 }, { kind: 'ok' }]);
      expectSuccess(await postJson(api.apiUrl, '/webhook', { ...made, webhookUrl: receiver.url('/charted') }));
      await ingest(made.instanceid, 'messages', { id: 'c-1', chatId: 'c@c.us', time: 1_700_000_000 });
      await ingest(made.instanceid, 'state', { state: 'authorized', time: 1_767_225_600 });
    }
  }
  await until('the charted notification delivered', () => receiver.at('/charted').some((r) => r.delivered), 20_000);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  page.on('request', (r) => requested.push(r.url()));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await notifier?.stop();
  await api?.stop();
  api?.removeData();
  await receiver?.stop();
});

describe('the instance list at scale', () => {
  it('shows the first page of 50, oldest first, with the label and state columns', async () => {
    await page.goto(`${api.accountUrl}/`);
    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('API key', { exact: true }).fill(account.apikey);
    await button('Sign in').click();
    await page.locator(`tr[data-instance="${ids[0]}"]`).waitFor();
    expect(await rowIds()).toEqual(ids.slice(0, 50));
    const headers = await page.locator('thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Label', 'State']));
    const first = page.locator(`tr[data-instance="${ids[0]}"]`);
    expect(await first.locator('td.state').textContent()).toBe('Authorized');
    expect(await page.locator(`tr[data-instance="${ids[3]}"] td.label`).textContent()).toBe('eu');
    expect(await button('Previous page').isDisabled()).toBe(true);
    await screenshot(page, 'instances-paged');
  });

  it('walks the pages with Next and Previous; the last page disables Next', async () => {
    await button('Next page').click();
    await page.locator(`tr[data-instance="${ids[50]}"]`).waitFor();
    expect(await rowIds()).toEqual(ids.slice(50, 100));
    await button('Next page').click();
    await page.locator(`tr[data-instance="${ids[100]}"]`).waitFor();
    expect(await rowIds()).toEqual(ids.slice(100));
    await until('Next disabled', () => button('Next page').isDisabled());
    await button('Previous page').click();
    await page.locator(`tr[data-instance="${ids[50]}"]`).waitFor();
    expect(await rowIds()).toEqual(ids.slice(50, 100));
  });

  it('filters by label and by status, from the first page', async () => {
    await page.getByLabel('Label', { exact: true }).fill('eu');
    await button('Filter').click();
    const labelled = ids.filter((_, i) => i % 10 === 3);
    await until('only labelled rows', async () => JSON.stringify(await rowIds()) === JSON.stringify(labelled));
    await page.getByLabel('Status', { exact: true }).selectOption('expired');
    await button('Filter').click();
    await page.getByText('No instance matches these filters.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Label', { exact: true }).fill('');
    await button('Filter').click();
    await until('the first page again', async () => (await rowIds())[0] === ids[0]);
  });

  it('sets a label in a dialog; the row and listInstances show it', async () => {
    await page.getByRole('button', { name: `Label of instance ${ids[1]}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Label', { exact: true }).fill('shop-berlin');
    await dialog.getByRole('button', { name: 'Save label', exact: true }).click();
    await page.locator(`tr[data-instance="${ids[1]}"] td.label`).getByText('shop-berlin').waitFor();
    const listed = expectSuccess(await get(api.accountUrl, '/listInstances', { ...account, label: 'shop-berlin' }));
    expect(listed.instances.map((i: { instanceid: string }) => i.instanceid)).toEqual([ids[1]]);
  });

  it("draws an instance's last 30 days as SVG from getUsage: delivered and failed per day", async () => {
    await page.getByRole('button', { name: `Usage of instance ${ids[0]}`, exact: true }).click();
    const chart = page.getByRole('dialog').getByRole('img');
    await chart.waitFor();
    const days = await chart
      .locator('g.usage-day')
      .evaluateAll((groups) =>
        groups.map((g) => [
          g.getAttribute('data-day'),
          g.getAttribute('data-delivered'),
          g.getAttribute('data-failed'),
        ]),
      );
    const today = new Date().toISOString().slice(0, 10);
    expect(days).toHaveLength(30);
    expect(days[29]).toEqual([today, '1', '1']);
    expect(days.slice(0, 29).every(([, d, f]) => d === '0' && f === '0')).toBe(true);
    expect(await chart.getAttribute('aria-label')).toBe(
      `1 notifications delivered and 1 attempts failed from ${days[0][0]} to ${today}`,
    );
    const tall = await chart.locator('g.usage-day').last().locator('rect.usage-delivered').getAttribute('height');
    expect(Number(tall)).toBeGreaterThan(100);
    await screenshot(page, 'usage-chart');
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
    // Drawn by the page itself: nothing was fetched from anywhere but the service.
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([api.accountUrl].sort());
  });
});
