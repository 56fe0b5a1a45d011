import { createAccount, expectFailure, expectSuccess, type Answer, type ApiProcess } from '@gw/testing';

/** What the error-code specs share: an account and an instance to cause errors with, and a check of
 * the failure envelope. */

export type Account = { email: string; apikey: string };
export type Instance = { instanceid: string; token: string };

const fieldsOf = (answer: Answer) => answer.json.details.map((d: { field?: string }) => d.field);

/** The failure envelope with these codes and, when given, exactly these fields in `details`. */
export async function refused(pending: Promise<Answer>, codes: string[], fields?: string[]): Promise<Answer> {
  const answer = await pending;
  expectFailure(answer, codes);
  if (fields) expect(fieldsOf(answer)).toEqual(fields);
  return answer;
}

let seq = 0;

/** A new account with one instance, made through `get` (a recording one, so that its answers count). */
export async function setUp(
  api: ApiProcess,
  get: (base: string, path: string, params: Record<string, string>) => Promise<Answer>,
  packageid = 'trial',
): Promise<{ who: Account; instance: Instance }> {
  const who = createAccount(api.dataDir, `codes-${process.pid}-${++seq}@example.com`);
  const instance = expectSuccess(
    await get(api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }),
  );
  return { who, instance: { instanceid: instance.instanceid, token: instance.token } };
}
