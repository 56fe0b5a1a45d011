import { expectSuccess, get, postJson, request, runOps, type ApiProcess } from '@gw/testing';
import type { ChaosReceiver } from './chaos-receiver';

/** An instance's credentials as the instance host reads them. */
export type Instance = { instanceid: string; token: string };
type Account = { email: string; apikey: string };

/** What the requests below need of the run: where to send them and where to note what they show. */
export interface ScanContext {
  api: ApiProcess;
  receiver: ChaosReceiver;
  env: Record<string, string>;
  internalToken: string;
  instances: Instance[];
  keep(kind: string, value: string): void;
  refused(what: string, url: string, init?: RequestInit): Promise<void>;
}

/** A JSON POST of `body` (a string goes as it is, so that it can be malformed). */
export const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const form = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});

/** The instance's credentials alone, without the rest of an answer. */
export function pick(instance: Instance): Instance {
  return { instanceid: instance.instanceid, token: instance.token };
}

/**
 * Secrets where clients put them (query, JSON, form, repeated, oddly encoded names, malformed and
 * oversized bodies, refused and unroutable requests), in successful requests too, and the secrets
 * self-service issues and retires (docs/api.md 8.1 to 8.3, 8.5, 8.6).
 */
export async function sendSecretsEverywhere(run: ScanContext, ann: Account, bob: Account): Promise<void> {
  const { keep, refused, receiver, instances } = run;
  const [a1, a2, b1] = instances;
  const INTERNAL_TOKEN = run.internalToken;
  const common = run.env;
  // Secrets where clients put them, in requests that are refused.
  const { accountUrl: acct, apiUrl: inst, internalUrl: ingest } = run.api;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  await refused(
    'wrong token in the query',
    `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: b1.token })}`,
  );
  await refused('wrong token in JSON', `${inst}/getWebhookLogs`, json({ instanceid: a2.instanceid, token: a1.token }));
  await refused(
    'wrong token in a form',
    `${inst}/webhook`,
    form(q({ instanceid: b1.instanceid, token: a2.token, webhookUrl: '' })),
  );
  await refused(
    'rotation with a wrong token',
    `${inst}/rotateSigningSecret`,
    json({ instanceid: a1.instanceid, token: a2.token }),
  );
  // A test notification (docs/api.md 8.6) to an instance that never registered a URL creates its
  // first secret, which signs the test; a test of a1 signs with both of its secrets.
  const untested = expectSuccess(
    await get(acct, '/newInstance', { email: ann.email, token: ann.apikey, packageid: 'trial' }),
  );
  keep('instance token', untested.token);
  expectSuccess(
    await postJson(inst, '/testWebhook', { ...pick(untested), webhookUrl: receiver.url('/test/untested') }),
  );
  keep(
    'signing secret of a test',
    expectSuccess(await postJson(inst, '/getWebhookStatus', pick(untested))).signingSecret,
  );
  expectSuccess(await get(inst, '/testWebhook', { ...pick(a1), webhookUrl: receiver.url('/test/a1') }));
  await refused(
    'testWebhook with a wrong token',
    `${inst}/testWebhook`,
    json({ instanceid: a1.instanceid, token: a2.token, webhookUrl: receiver.url('/test/x') }),
  );
  await refused(
    'repeated token in the query',
    `${inst}/getWebhookStatus?instanceid=${a1.instanceid}&token=${a1.token}&token=${b1.token}`,
  );
  await refused(
    'repeated token in a form',
    `${inst}/getWebhookStatus`,
    form(`instanceid=${a1.instanceid}&token=${a1.token}&token=${a1.token}`),
  );
  await refused(
    'repeated token in JSON',
    `${inst}/getWebhookStatus`,
    json(`{"instanceid":"${a1.instanceid}","token":"${a1.token}","token":"${a2.token}"}`),
  );
  await refused(
    'token as an array',
    `${inst}/getWebhookStatus`,
    json({ instanceid: a1.instanceid, token: [a1.token, b1.token] }),
  );
  await refused(
    'token as an object',
    `${inst}/getWebhookStatus`,
    json({ instanceid: a1.instanceid, token: { token: a1.token } }),
  );
  await refused(
    'token with a control character',
    `${inst}/getWebhookStatus`,
    json({ instanceid: a1.instanceid, token: `${a1.token}\u0000` }),
  );
  await refused(
    'token too long',
    `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: a1.token.repeat(30) })}`,
  );
  await refused(
    'malformed JSON with a token',
    `${inst}/webhook`,
    json(`{"instanceid":"${a1.instanceid}","token":"${a1.token}","webhookUrl":`),
  );
  await refused(
    'malformed form with a token',
    `${inst}/webhook`,
    form(`token=${a1.token}%zz&instanceid=${a1.instanceid}`),
  );
  await refused(
    'oversized body with a token',
    `${inst}/webhook`,
    json({ instanceid: a1.instanceid, token: a1.token, webhookUrl: `https://8.8.8.8/${'a'.repeat(70_000)}` }),
  );
  await refused('unsupported content type', `${inst}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: `token=${a1.token}`,
  });
  await refused(
    'encoded parameter names',
    `${inst}/getWebhookStatus?instanceid=${a1.instanceid}&tok%65n=${b1.token}&TOKEN=${a2.token}`,
  );
  await refused('wrong API key', `${acct}/listInstances?${q({ email: ann.email, apikey: bob.apikey })}`);
  await refused(
    'API key of another account on newInstance',
    `${acct}/newInstance?${q({ email: bob.email, token: ann.apikey, packageid: 'trial' })}`,
  );
  await refused(
    'API key with a control character',
    `${acct}/listInstances?${q({ email: ann.email, apikey: `${ann.apikey}\u0001` })}`,
  );
  await refused(
    'repeated API key',
    `${acct}/listInstances?email=${ann.email}&apikey=${ann.apikey}&apikey=${ann.apikey}`,
  );
  await refused(
    'unknown package with a right key',
    `${acct}/renewInstance?${q({ email: ann.email, apikey: ann.apikey, instanceid: a1.instanceid, packageid: 'x' })}`,
  );
  await refused(
    'unknown operation with secrets',
    `${acct}/deleteAccount?${q({ email: ann.email, apikey: ann.apikey, token: a1.token })}`,
  );
  await refused(
    'wrong method with secrets',
    `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: a1.token })}`,
    { method: 'PUT' },
  );
  await refused('ingest with an API key as bearer', `${ingest}/instances/${a1.instanceid}/messages`, {
    ...json({ id: 'x', chatId: 'c', time: 1 }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.apikey}` },
  });
  await refused('ingest with a token in the body', `${ingest}/instances/${a1.instanceid}/messages`, {
    ...json({ id: 'x', chatId: 'c', time: 'soon', token: a1.token, apikey: ann.apikey }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
  });

  // Secrets in successful requests too: the body's value wins over a wrong one in the query.
  expectSuccess(await request(`${inst}/getWebhookStatus?${q({ token: b1.token })}`, json(pick(a1))));
  expectSuccess(await get(acct, '/listInstances', { email: ann.email, apikey: ann.apikey }));
  expectSuccess(
    await get(acct, '/renewInstance', {
      email: bob.email,
      apikey: bob.apikey,
      instanceid: b1.instanceid,
      packageid: 'monthly',
    }),
  );

  // Self-service (docs/api.md 8.1 to 8.3): the tokens and keys it issues, in answers and by the
  // operator CLI, and the ones it retires, must stay out of the store and the logs too.
  const doomed = expectSuccess(
    await get(acct, '/newInstance', { email: ann.email, token: ann.apikey, packageid: 'trial' }),
  );
  keep('instance token', doomed.token);
  await refused(
    'deleteInstance with a wrong key',
    `${acct}/deleteInstance?${q({ email: ann.email, apikey: bob.apikey, instanceid: doomed.instanceid })}`,
  );
  expectSuccess(
    await get(acct, '/deleteInstance', { email: ann.email, apikey: ann.apikey, instanceid: doomed.instanceid }),
  );
  await refused('the token of a deleted instance', `${inst}/getWebhookStatus`, json(pick(doomed)));
  await refused(
    'resetInstanceToken with a wrong key',
    `${acct}/resetInstanceToken?${q({ email: bob.email, apikey: ann.apikey, instanceid: b1.instanceid })}`,
  );
  keep(
    'reset instance token',
    expectSuccess(
      await get(acct, '/resetInstanceToken', { email: ann.email, apikey: ann.apikey, instanceid: a2.instanceid }),
    ).token,
  );
  await refused('a token replaced by a reset', `${inst}/getWebhookLogs?${q(pick(a2))}`);
  keep(
    'reset API key',
    expectSuccess(await get(acct, '/resetApiKey', { email: bob.email, apikey: bob.apikey })).apikey,
  );
  await refused('an API key replaced by a reset', `${acct}/resetApiKey?${q({ email: bob.email, apikey: bob.apikey })}`);
  const operatorReset = runOps(run.api.dataDir, ['accounts', 'reset-key', '--email', ann.email], common);
  expect(operatorReset.status).toBe(0);
  keep('reset API key', JSON.parse(operatorReset.stdout).apikey);
}
