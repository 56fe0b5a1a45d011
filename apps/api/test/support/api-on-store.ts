import { AccountIdentity } from '@gw/application';
import { loadConfig, type AppConfig } from '@gw/config';
import { accountStreamName } from '@gw/domain-accounts';
import type { RecordedEvent } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';
import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import { ApiProcess, runOpsAsync } from '@gw/testing';

/** The stores an e2e runs on: the embedded one, and EventStoreDB through the in-repo test server. */
export const STORES = [
  ['the embedded store', false],
  ['EventStoreDB (the in-repo protocol test server)', true],
] as const;

/** An API process on one store, and the operator CLI on the same store. */
export class ApiOnStore {
  private constructor(
    public api: ApiProcess,
    /** What the API and the CLI are given to reach the store (nothing for the embedded one). */
    readonly storeEnv: Record<string, string>,
    private readonly server: EsdbTestServer | undefined,
  ) {}

  static async start(onEsdb: boolean, env: Record<string, string> = {}): Promise<ApiOnStore> {
    const server = onEsdb ? await startEsdbTestServer({ port: 0 }) : undefined;
    const storeEnv: Record<string, string> = server
      ? { EVENT_STORE: server.connectionString, SECRETS_KEY: 'ef'.repeat(32) }
      : {};
    const api = await ApiProcess.start({ env: { ...storeEnv, ...env } });
    return new ApiOnStore(api, storeEnv, server);
  }

  /** Runs the operator CLI without blocking: the EventStoreDB test server runs in this process. */
  async ops(args: string[]): Promise<string> {
    const result = await runOpsAsync(this.api.dataDir, args, this.storeEnv);
    if (result.status !== 0) throw new Error(`ops ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  }

  async createAccount(email: string): Promise<{ email: string; apikey: string }> {
    return JSON.parse(await this.ops(['accounts', 'create', '--email', email])) as { email: string; apikey: string };
  }

  /** The stream of the account an address names: its id is a keyed hash under the API's
   * SECRETS_KEY (given, or made in its DATA_DIR), so the test computes it as the API does. */
  accountStream(email: string): string {
    return accountStreamName(this.accountIdentity().accountId(email));
  }

  /** Account ids and sealed addresses as the API makes them. */
  accountIdentity(): AccountIdentity {
    return new AccountIdentity(this.config().secrets.secretsKey);
  }

  /** Works on the store directly, as stored (nothing hidden), as another process would. */
  async withStore<T>(work: (store: ReturnType<typeof openEventStore>) => Promise<T>): Promise<T> {
    const opened = openEventStore(this.config().store.eventStore);
    try {
      return await work(opened);
    } finally {
      await opened.close();
    }
  }

  /** One stream's events exactly as stored. */
  rawStream(stream: string): Promise<RecordedEvent[]> {
    return this.withStore((store) => store.readStream(stream));
  }

  private config(): AppConfig {
    return loadConfig({ NODE_ENV: 'test', DATA_DIR: this.api.dataDir, ...this.storeEnv });
  }

  /** The recorded events of one stream, oldest first, as `events list` prints them. */
  async streamEvents(stream: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
    const text = (await this.ops(['events', 'list', '--stream', stream])).trim();
    return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
  }

  /** Stops the API and starts it again on the same data and store, with `env` added (a shifted clock). */
  async restart(env: Record<string, string>): Promise<void> {
    await this.api.stop();
    this.api = await ApiProcess.start({ dataDir: this.api.dataDir, env: { ...this.storeEnv, ...env } });
  }

  async stop(): Promise<void> {
    await this.api.stop();
    this.api.removeData();
    await this.server?.stop();
  }
}
