import { ApiProcess, createAccount, tempDataDir } from './app-process';
import { expectSuccess, get, postJson } from './http';
import { DAY_MS, shiftedClock } from './shifted-clock';

export interface ExpiredInstanceSetup {
  /** The API, restarted on the same data with its clock `offsetMs` ahead. */
  api: ApiProcess;
  offsetMs: number;
  who: { email: string; apikey: string };
  /** A `trial` (three-day) instance created before the jump, with `webhookUrl` registered. */
  instance: { instanceid: string; token: string; expiresAt: string };
  webhookUrl: string;
  stop: () => Promise<void>;
}

/**
 * Package durations are whole days, so an expired instance cannot be waited for. Instead the API
 * creates a three-day instance (and registers its webhook) at the real time, stops, and starts again
 * on the same data with its clock four days ahead: to it, the instance has then genuinely expired.
 */
export async function startWithExpiredInstance(webhookUrl = 'https://8.8.8.8/expiring'): Promise<ExpiredInstanceSetup> {
  const offsetMs = 4 * DAY_MS;
  const before = await ApiProcess.start({ dataDir: tempDataDir() });
  const who = createAccount(before.dataDir, 'expiry@example.com');
  const created = expectSuccess(
    await get(before.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid: 'trial' }),
  );
  const instance = { instanceid: created.instanceid, token: created.token, expiresAt: created.expiresAt };
  expectSuccess(
    await postJson(before.apiUrl, '/webhook', { instanceid: instance.instanceid, token: instance.token, webhookUrl }),
  );
  await before.stop();
  const clock = shiftedClock(offsetMs);
  const api = await ApiProcess.start({ dataDir: before.dataDir, env: clock.env });
  const stop = async () => {
    await api.stop();
    api.removeData();
    clock.remove();
  };
  return { api, offsetMs, who, instance, webhookUrl, stop };
}
