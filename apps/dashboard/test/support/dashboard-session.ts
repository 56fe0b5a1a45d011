import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ApiProcess,
  createAccount,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  WebhookReceiver,
  type Answer,
} from '@gw/testing';
import { launchChromium } from './browser';

// What the dashboard's browser specs share: the real service (API on both hosts with the embedded
// store, the notifier, a webhook receiver, all on ephemeral loopback ports), an account with a trial
// instance made before signing in, one browser page, and the ways the specs find things on it.

export const INTERNAL_TOKEN = 'dashboard-browser-internal-token-0123456789';
/** Local plain-http receivers are allowed for tests only (docs/api.md section 6, Targets). */
const ENV = {
  INTERNAL_TOKEN,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};

/** An instance's credentials. */
export type Credentials = { instanceid: string; token: string };

/** The service, a page on it, and what the specs look up through either. */
export class DashboardSession {
  /** Every URL the page requested, to check it talks to the service alone. */
  readonly requested: string[] = [];

  private constructor(
    readonly api: ApiProcess,
    private readonly notifier: NotifierProcess,
    readonly receiver: WebhookReceiver,
    private readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly account: { email: string; apikey: string },
    /** Made before signing in (trial: its expiry is close), with the receiver as its webhook. */
    readonly trial: Credentials,
  ) {
    page.on('request', (r) => this.requested.push(r.url()));
  }

  static async start(): Promise<DashboardSession> {
    const receiver = await WebhookReceiver.start();
    const api = await ApiProcess.start({ env: ENV });
    const notifier = await NotifierProcess.start(api.dataDir, ENV);
    const account = createAccount(api.dataDir, 'dashboard@example.com');
    const trial = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    expectSuccess(await postJson(api.apiUrl, '/webhook', { ...trial, webhookUrl: receiver.url('/hook') }));
    const browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const { instanceid, token } = trial;
    return new DashboardSession(api, notifier, receiver, browser, context, page, account, { instanceid, token });
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await this.notifier.stop();
    await this.api.stop();
    this.api.removeData();
    await this.receiver.stop();
  }

  hookUrl(): string {
    return this.receiver.url('/hook');
  }

  /** getWebhookStatus through the API itself. */
  status(instance: Credentials): Promise<Answer> {
    return postJson(this.api.apiUrl, '/getWebhookStatus', instance);
  }

  /** The account's instances, through the API itself. */
  async listed(): Promise<any[]> {
    return expectSuccess(await get(this.api.accountUrl, '/listInstances', this.account)).instances;
  }

  row(instanceid: string) {
    return this.page.locator(`tr[data-instance="${instanceid}"]`);
  }

  button(name: string) {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** The instance view's delivery log, by its table caption (the notifications table has rows too). */
  deliveryLog() {
    return this.page.getByRole('table', { name: 'Latest delivery attempts', exact: true });
  }
}
