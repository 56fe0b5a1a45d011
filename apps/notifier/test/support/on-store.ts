import { startEsdbTestServer } from '@gw/esdb-test-server';
import { WebhookReceiver } from '@gw/testing';
import { LOCAL_TARGETS, Stack } from './stack';

/** The stores the notifier's end-to-end suites run on: `describe.each(STORES)(…, (_name, onEsdb) => …)`. */
export const STORES = [
  ['the embedded store', false],
  ['EventStoreDB (the in-repo protocol test server), each notifier on a fresh disk', true],
] as const;

export interface RunningOnStore {
  stack: Stack;
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}

/**
 * A real receiver and the built API and notifier on the chosen store, local targets allowed. On
 * EventStoreDB the test server is started too, the processes share no disk (every notifier starts on
 * a fresh one, as on another machine), so they share SECRETS_KEY instead.
 */
async function startOnStore(onEsdb: boolean, env: Record<string, string> = {}): Promise<RunningOnStore> {
  const receiver = await WebhookReceiver.start();
  const server = onEsdb ? await startEsdbTestServer({ port: 0 }) : undefined;
  const store: Record<string, string> = server
    ? { EVENT_STORE: server.connectionString, SECRETS_KEY: 'cd'.repeat(32) }
    : {};
  const stack = await Stack.start({ env: { ...LOCAL_TARGETS, ...store, ...env }, freshNotifierDisk: onEsdb });
  return {
    stack,
    receiver,
    async stop() {
      await receiver.stop();
      await stack.stop();
      await server?.stop();
    },
  };
}

/**
 * For a suite: starts a receiver and the stack on the chosen store before its tests and stops them
 * after. `on.stack` and `on.receiver` are there once the suite's tests run.
 */
export function stackOnStore(
  onEsdb: boolean,
  env: Record<string, string> = {},
): { readonly stack: Stack; readonly receiver: WebhookReceiver } {
  let running: RunningOnStore | undefined;
  beforeAll(async () => {
    running = await startOnStore(onEsdb, env);
  }, 60_000);
  afterAll(() => running?.stop());
  const started = (): RunningOnStore => {
    if (!running) throw new Error('the stack is not started: use it inside the suite’s tests');
    return running;
  };
  return {
    get stack() {
      return started().stack;
    },
    get receiver() {
      return started().receiver;
    },
  };
}

/**
 * For a file whose tests are independent of each other (each makes its own instance and receiver
 * path, none restarts a process) and mostly wait on the notifier's clock: both stores' stacks,
 * started by the file's top-level hooks, for `describe.each(stacksOnStores(env))(…, (_name, on) =>
 * it.concurrent(…))`. Jest starts concurrent tests once the top-level `beforeAll` hooks are done, not
 * those of the `describe` they are in, so the stacks must be started at the top level. Call it at the
 * top level of the file. The tests then wait side by side, the file taking as long as its longest
 * test rather than the sum of them (at most `maxConcurrency` at once, jest.config.js).
 */
export function stacksOnStores(
  env: Record<string, string> = {},
): [name: string, on: { readonly stack: Stack; readonly receiver: WebhookReceiver }][] {
  return STORES.map(([name, onEsdb]) => [name, stackOnStore(onEsdb, env)]);
}
