import { expectFailure, expectSuccess } from '@gw/testing';
import { screenshot } from './support/browser';
import { DashboardSession, type Credentials } from './support/dashboard-session';

// The dashboard of docs/api.md section 10, driven in a real browser against the real service
// (support/dashboard-session.ts): signing in, the account's instances and what is done to them, and
// what the page keeps of credentials. Each test is one flow and goes on from where the one before
// left the page; what it asserts is what the service then holds, seen through the API itself.

let s: DashboardSession;
/** The instance made in the page. */
let made: Credentials;

beforeAll(async () => {
  s = await DashboardSession.start();
}, 120_000);
afterAll(() => s?.stop());

describe('the dashboard', () => {
  it('is served by the account host, with its labelled sign-in fields', async () => {
    const answer = await s.page.goto(`${s.api.accountUrl}/`);
    expect(answer?.status()).toBe(200);
    const headers = answer!.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    for (const label of ['E-mail', 'API key', 'Instance ID', 'Token'])
      await s.page.getByLabel(label, { exact: true }).waitFor();
    await s.button('Sign in').waitFor();
    await s.button('Open instance').waitFor();
    await screenshot(s.page, 'sign-in');
  });

  it('says why a sign-in is refused, in words next to the code', async () => {
    await s.page.getByLabel('E-mail', { exact: true }).fill(s.account.email);
    await s.page.getByLabel('API key', { exact: true }).fill('gwk_not-the-key');
    await s.button('Sign in').click();
    const alert = s.page.getByRole('alert');
    await alert.getByText('0003').waitFor();
    expect(await alert.textContent()).toContain('account authentication failed: unknown e-mail or wrong API key');
    await screenshot(s.page, 'sign-in-refused');
  });

  it('signs in with the keyboard alone and lists the instances, warning of a close expiry', async () => {
    await s.page.getByLabel('API key', { exact: true }).fill('');
    await s.page.getByLabel('E-mail', { exact: true }).focus();
    await s.page.keyboard.press('Tab');
    await s.page.keyboard.type(s.account.apikey);
    await s.page.keyboard.press('Enter');
    const trialRow = s.row(s.trial.instanceid);
    await trialRow.waitFor();
    const text = await trialRow.textContent();
    expect(text).toContain('trial');
    expect(text).toContain('Active');
    expect(text).toContain('renew soon');
    expect(text).toContain(s.hookUrl());
    expect(await trialRow.locator('td').nth(6).textContent()).toBe('On');
    await screenshot(s.page, 'instances');
  });

  it('creates an instance from a package choice and shows its token once, with a copy button', async () => {
    await s.button('New instance').click();
    const dialog = s.page.getByRole('dialog');
    await dialog.getByLabel('monthly').check();
    await screenshot(s.page, 'new-instance');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const tokenField = s.page.getByLabel('New token', { exact: true });
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).toMatch(/\S/);
    // Set as the field's value, never as an attribute: the token is not in the page's markup.
    expect(await tokenField.getAttribute('value')).toBeNull();
    const instanceid = (await s.page.locator('h1 code').textContent()) ?? '';
    made = { instanceid, token };
    expect((await s.listed()).find((i) => i.instanceid === instanceid)?.packageid).toBe('monthly');
    expectSuccess(await s.status(made));
    await s.page.getByRole('button', { name: 'Copy', exact: true }).first().click();
    await s.page.getByText('Copied').first().waitFor();
    expect(await s.page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await screenshot(s.page, 'instance-created');
  });

  it('renews an instance with a package choice', async () => {
    const before = (await s.listed()).find((i) => i.instanceid === made.instanceid);
    await s.button('← Instances').click();
    // Row buttons are named after their instance, so they are found without the row.
    await s.button(`Renew instance ${made.instanceid}`).click();
    const dialog = s.page.getByRole('dialog');
    await dialog.getByLabel('annual').check();
    await screenshot(s.page, 'renew');
    await dialog.getByRole('button', { name: 'Renew', exact: true }).click();
    await s.page.getByText(/^Renewed /).waitFor();
    const after = (await s.listed()).find((i) => i.instanceid === made.instanceid);
    expect(after.packageid).toBe('annual');
    expect(Date.parse(after.expiresAt) - Date.parse(before.expiresAt)).toBeGreaterThanOrEqual(
      365 * 86_400_000 - 60_000,
    );
    expect(await s.row(made.instanceid).textContent()).toContain('annual');
  });

  it('resets a token: the new one is shown once, the old one is refused', async () => {
    await s.button(`Reset token of instance ${made.instanceid}`).click();
    await screenshot(s.page, 'reset-token');
    await s.page.getByRole('dialog').getByRole('button', { name: 'Reset token', exact: true }).click();
    const tokenField = s.page.getByLabel('New token', { exact: true });
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).not.toBe(made.token);
    expectFailure(await s.status(made), ['0006']);
    made = { ...made, token };
    expectSuccess(await s.status(made));
    await s.page.getByText('The previous token no longer works.').waitFor();
    await screenshot(s.page, 'token-reset');
  });

  it('deletes an instance only once the deletion is confirmed', async () => {
    await s.button('← Instances').click();
    await s.button(`Delete instance ${s.trial.instanceid}`).click();
    await screenshot(s.page, 'delete');
    await s.page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await s.listed()).map((i) => i.instanceid)).toContain(s.trial.instanceid);
    await s.button(`Delete instance ${s.trial.instanceid}`).click();
    await s.page.getByRole('dialog').getByRole('button', { name: 'Delete instance', exact: true }).click();
    await s.page.getByText(`Deleted instance ${s.trial.instanceid}.`).waitFor();
    expect((await s.listed()).map((i) => i.instanceid)).not.toContain(s.trial.instanceid);
    expect(await s.row(s.trial.instanceid).count()).toBe(0);
    expectFailure(await s.status(s.trial), ['0006']);
  });

  it('opens one instance by its id and token, and says why a wrong token is refused', async () => {
    await s.button('Sign out').click();
    await s.page.getByLabel('Instance ID', { exact: true }).fill(made.instanceid);
    await s.page.getByLabel('Token', { exact: true }).fill('gwt_wrong');
    await s.button('Open instance').click();
    const alert = s.page.getByRole('alert');
    await alert.getByText('0006').waitFor();
    expect(await alert.textContent()).toContain('instance authentication failed');
    await s.page.getByLabel('Token', { exact: true }).fill(made.token);
    await s.button('Open instance').click();
    await s.page.locator('h1 code', { hasText: made.instanceid }).waitFor();
    await s.button('Close instance').waitFor();
    await s.page.getByText('Delivery is off: no webhook URL is registered.').waitFor();
  });

  it('labels every field, keeps credentials out of cookies, storage and the URL, and talks to the service alone', async () => {
    const unlabelled = await s.page.evaluate(
      `[...document.querySelectorAll('input, select, textarea')].filter((e) => e.labels.length === 0 && !e.getAttribute('aria-label')).length`,
    );
    expect(unlabelled).toBe(0);
    expect(await s.context.cookies()).toEqual([]);
    expect(await s.page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(s.page.url()).toBe(`${s.api.accountUrl}/`);
    const origins = new Set(s.requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([s.api.accountUrl, s.api.apiUrl].sort());
    for (const url of s.requested) {
      for (const secret of [s.account.apikey, made.token])
        expect(url.includes(secret) && !url.startsWith(s.api.accountUrl)).toBe(false);
    }
  });
});
