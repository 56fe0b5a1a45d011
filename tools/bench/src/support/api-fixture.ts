import Database from 'better-sqlite3';
import { join } from 'node:path';
import { AccountIdentity, registerAccount, withEventSchemas } from '@gw/application';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { AppChild, newSecrets, removeDir, tempDir, type Secrets } from './apps';
import type { BenchContext } from './context';

export interface Instance {
  instanceid: string;
  token: string;
}

/** An API process on its own fresh data dir with one account, and the client calls the scenarios need. */
export class ApiFixture {
  private constructor(
    readonly api: AppChild,
    readonly dataDir: string,
    readonly secrets: Secrets,
    readonly account: { email: string; apikey: string },
  ) {}

  static async start(ctx: BenchContext, label: string, env: Record<string, string> = {}): Promise<ApiFixture> {
    const dataDir = tempDir(label);
    const secrets = newSecrets();
    const store = withEventSchemas(new SqliteEventStore({ file: join(dataDir, 'events.sqlite') }));
    const identity = new AccountIdentity(Buffer.from(secrets.secretsKey, 'hex'));
    const account = await registerAccount(store, identity, 'bench@example.com', new Date().toISOString());
    await store.close();
    const api = await AppChild.start('api', {
      dataDir,
      secrets,
      env,
      profileLabel: ctx.profile ? `${label}-api` : undefined,
    });
    return new ApiFixture(api, dataDir, secrets, account);
  }

  get storeFile(): string {
    return join(this.dataDir, 'events.sqlite');
  }

  async newInstance(): Promise<Instance> {
    const query = new URLSearchParams({ email: this.account.email, token: this.account.apikey, packageid: 'monthly' });
    const body = await expectSuccess(await fetch(`${this.api.url('account')}/newInstance?${query}`));
    return { instanceid: body['instanceid'] as string, token: body['token'] as string };
  }

  async instances(count: number): Promise<Instance[]> {
    const made: Instance[] = [];
    while (made.length < count)
      made.push(
        ...(await Promise.all(Array.from({ length: Math.min(16, count - made.length) }, () => this.newInstance()))),
      );
    return made;
  }

  async webhook(instance: Instance, webhookUrl: string): Promise<void> {
    await expectSuccess(await postJson(`${this.api.url('instance')}/webhook`, { ...instance, webhookUrl }));
  }

  /** How many events of a type the log holds. */
  countEvents(type: string): number {
    const db = new Database(this.storeFile, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM events WHERE type = ?').get(type) as { n: number }).n;
    } finally {
      db.close();
    }
  }

  async stop(): Promise<void> {
    try {
      await this.api.stop();
    } finally {
      removeDir(this.dataDir);
    }
  }
}

export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function expectSuccess(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  if (response.status !== 200 || body['success'] !== true)
    throw new Error(`expected success, got ${response.status}: ${text}`);
  return body;
}

export const isSuccess = (body: string): boolean => body.startsWith('{"success":true');
