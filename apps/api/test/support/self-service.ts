import { expectSuccess, get, postJson, request, type Answer } from '@gw/testing';
import type { ApiOnStore } from './api-on-store';

/** What the self-service specs (docs/api.md 8.1 to 8.3) share: the calls an account holder and an
 * instance owner make, on one API. */

export type Account = { email: string; apikey: string };
export type Instance = { instanceid: string; token: string };

/** A timestamp as the contract writes them: ISO 8601 in UTC, with milliseconds. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** 192 random bits in base64url after the prefix (docs/api.md 4). */
export const API_KEY = /^gwk_[A-Za-z0-9_-]{32}$/;
export const INSTANCE_TOKEN = /^gwt_[A-Za-z0-9_-]{32}$/;

/** The ingest host's bearer token, given to the API so that the specs can record traffic. */
export const INTERNAL_TOKEN = 'self-service-e2e-internal-token-0123';

let seq = 0;

export function selfService(store: ApiOnStore) {
  const { api } = store;
  const account = (path: string, params: Record<string, string>) => get(api.accountUrl, path, params);
  const client = {
    /** A new account, through the operator CLI. */
    newAccount: (): Promise<Account> => store.createAccount(`self-service-${process.pid}-${++seq}@example.com`),
    newInstance: async (who: Account): Promise<Instance> => {
      const body = expectSuccess(
        await account('/newInstance', { email: who.email, token: who.apikey, packageid: 'trial' }),
      );
      return { instanceid: body.instanceid, token: body.token };
    },
    deleteInstance: (who: Account, instanceid: string) =>
      account('/deleteInstance', { email: who.email, apikey: who.apikey, instanceid }),
    resetToken: (who: Account, instanceid: string) =>
      account('/resetInstanceToken', { email: who.email, apikey: who.apikey, instanceid }),
    resetKey: (who: Account) => account('/resetApiKey', { email: who.email, apikey: who.apikey }),
    renew: (who: Account, instanceid: string) =>
      account('/renewInstance', { email: who.email, apikey: who.apikey, instanceid, packageid: 'trial' }),
    list: (who: Account) => account('/listInstances', { email: who.email, apikey: who.apikey }),
    listed: async (who: Account): Promise<any[]> => expectSuccess(await client.list(who)).instances,
    /** getWebhookStatus, webhook and getWebhookLogs, the instance-scoped calls a token opens. */
    status: (i: Instance) => postJson(api.apiUrl, '/getWebhookStatus', i),
    webhook: (i: Instance, webhookUrl: string) => postJson(api.apiUrl, '/webhook', { ...i, webhookUrl }),
    webhookViaAccountHost: (i: Instance, webhookUrl: string) => account('/webhook', { ...i, webhookUrl }),
    logs: (i: Instance) => get(api.apiUrl, '/getWebhookLogs', { ...i }),
    /** A message or an ack through the internal ingest host (docs/api.md section 6). */
    ingest: (instanceid: string, kind: 'messages' | 'acks', id: string): Promise<Answer> =>
      request(`${api.internalUrl}/instances/${encodeURIComponent(instanceid)}/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
        body: JSON.stringify(
          kind === 'messages'
            ? { id, chatId: 'c@c.us', time: 1_700_000_000 }
            : { id, chatId: 'c@c.us', status: 'read', time: 1_700_000_001 },
        ),
      }),
  };
  return client;
}

export type SelfService = ReturnType<typeof selfService>;
