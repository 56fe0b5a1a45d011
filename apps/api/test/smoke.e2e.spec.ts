import { ApiProcess, createAccount } from '@gw/testing';
import { expectSuccess, get } from '@gw/testing';

describe('API smoke', () => {
  let api: ApiProcess;
  beforeAll(async () => {
    api = await ApiProcess.start();
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  it('creates an instance for an account made by the operator CLI and lists it', async () => {
    const account = createAccount(api.dataDir, 'smoke@example.com');
    const created = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    const listed = expectSuccess(
      await get(api.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }),
    );
    expect(listed.instances.map((i: { instanceid: string }) => i.instanceid)).toEqual([created.instanceid]);
  });
});
