import { ApiProcess, createAccount, expectSuccess, get, postJson } from '@gw/testing';

// What the operations specs (operations-*.e2e.spec.ts, docs/api.md section 4) share: the documented
// shapes, and a built API with the calls they make of it.

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const DAY_MS = 86_400_000;
export const DURATION_DAYS: Record<string, number> = { trial: 3, monthly: 30, annual: 365 };
export const LISTED_KEYS = [
  'createdAt',
  'events',
  'expiresAt',
  'label',
  'state',
  'instanceid',
  'packageid',
  'status',
  'webhookEnabled',
  'webhookUrl',
];
/** The notification kinds of an instance that never chose any (docs/api.md 8.4). */
export const DEFAULT_EVENTS = ['messages', 'ownMessages', 'acks'];

export type Account = { email: string; apikey: string };
export type Instance = { instanceid: string; token: string };

/** What webhook and getWebhookStatus always show of the receiver's options (docs/api.md section 12). */
export const OPTION_KEYS = ['signatureScheme', 'webhookHeaders'];

/** Exactly these keys; `signingSecret` (section 6) may be present once a URL was registered. */
export function expectKeys(body: Record<string, unknown>, keys: string[]): void {
  const { signingSecret, ...rest } = body;
  expect(Object.keys(rest).sort()).toEqual([...keys].sort());
  if (signingSecret !== undefined) expect(signingSecret).toMatch(/^whsec_/);
}

/** Starts the built API for the enclosing describe (default catalogue) and gives the calls the specs make. */
export function operationsApi() {
  let api: ApiProcess;
  let accountSeq = 0;
  beforeAll(async () => {
    api = await ApiProcess.start();
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const account = (): Account => createAccount(api.dataDir, `ops-${++accountSeq}@example.com`);
  const newInstance = async (who: Account, packageid = 'trial') =>
    expectSuccess(await get(api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }));
  const list = async (who: Account) =>
    expectSuccess(await get(api.accountUrl, '/listInstances', { email: who.email, apikey: who.apikey }))
      .instances as any[];
  const status = async (i: Instance) =>
    expectSuccess(await get(api.apiUrl, '/getWebhookStatus', { instanceid: i.instanceid, token: i.token }));
  const setWebhook = async (i: Instance, webhookUrl: string) =>
    expectSuccess(await postJson(api.apiUrl, '/webhook', { instanceid: i.instanceid, token: i.token, webhookUrl }));
  const listed = async (who: Account, i: Instance) => (await list(who)).find((row) => row.instanceid === i.instanceid);
  return {
    /** The running API (started in beforeAll). */
    get api(): ApiProcess {
      return api;
    },
    account,
    newInstance,
    list,
    status,
    setWebhook,
    listed,
  };
}
