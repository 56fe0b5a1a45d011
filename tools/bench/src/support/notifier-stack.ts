import { WebhookReceiver } from '@gw/testing/receiver';
import { AppChild } from './apps';
import { ApiFixture, type Instance } from './api-fixture';
import type { BenchContext } from './context';

/** Lifts the checks that keep webhooks off loopback and plain http (development and tests only). */
const LOCAL_TARGETS = { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' };

/** Scenarios d's and i's stack: an API and a notifier on one data dir, a receiver in this process,
 * and instances whose webhooks point at the receiver (`/hook/<index>`). */
export class NotifierStack {
  private constructor(
    readonly fixture: ApiFixture,
    readonly notifier: AppChild,
    readonly receiver: WebhookReceiver,
    readonly instances: Instance[],
  ) {}

  /** `scenario` names the apps' profiles (bench/profiles/<scenario>-api, -notifier). */
  static async start(ctx: BenchContext, scenario: 'd' | 'i'): Promise<NotifierStack> {
    const fixture = await ApiFixture.start(ctx, scenario, LOCAL_TARGETS);
    // Keeps no record: the runs are tens of thousands of requests, and the heap is this process's.
    const receiver = await WebhookReceiver.start({ keep: false });
    try {
      const instances = await fixture.instances(ctx.sizes.notifierInstances);
      for (const [index, instance] of instances.entries())
        await fixture.webhook(instance, receiver.url(`/hook/${index}`));
      // Every instance here is one account's, with one receiver origin: left at their defaults (half
      // the total), the fair shares of docs/api.md section 11 would halve the requests in flight, and
      // d would compare the notifier at 32 with undici at 64 (and with what it was before the shares).
      const concurrency = String(ctx.sizes.notifierConcurrency);
      const notifier = await AppChild.start('notifier', {
        dataDir: fixture.dataDir,
        secrets: fixture.secrets,
        env: {
          ...LOCAL_TARGETS,
          NOTIFIER_CONCURRENCY: concurrency,
          NOTIFIER_ACCOUNT_CONCURRENCY: concurrency,
          NOTIFIER_ENDPOINT_CONCURRENCY: concurrency,
        },
        profileLabel: ctx.profile ? `${scenario}-notifier` : undefined,
      });
      return new NotifierStack(fixture, notifier, receiver, instances);
    } catch (error) {
      await receiver.stop();
      await fixture.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.notifier.stop();
    } finally {
      await this.receiver.stop();
      await this.fixture.stop();
    }
  }
}
