import { expectFailure, expectSuccess, get, postForm, postJson, request, type Answer } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';

/** docs/api.md 8.4 over HTTP: `events` on webhook (4.4 and 4.6), and the set in force in the answers
 * of webhook, getWebhookStatus and listInstances, on both stores. */

const DEFAULT = ['messages', 'ownMessages', 'acks'];
type Instance = { instanceid: string; token: string };
type Params = Record<string, unknown>;

describe.each(STORES)('notification kinds on webhook, on %s', (_store, onEsdb) => {
  let harness: ApiOnStore;
  let account: { email: string; apikey: string };
  beforeAll(async () => {
    harness = await ApiOnStore.start(onEsdb);
    account = await harness.createAccount(`kinds-${process.pid}@example.com`);
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
  });

  const api = () => harness.api;
  const newInstance = async (): Promise<Instance> => {
    const body = expectSuccess(
      await get(api().accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    return { instanceid: body.instanceid, token: body.token };
  };
  const webhook = (i: Instance, params: Params) => postJson(api().apiUrl, '/webhook', { ...i, ...params });
  const status = async (i: Instance) => expectSuccess(await postJson(api().apiUrl, '/getWebhookStatus', i));
  const listed = async (i: Instance) => {
    const body = expectSuccess(
      await get(api().accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }),
    );
    return body.instances.find((row: { instanceid: string }) => row.instanceid === i.instanceid);
  };
  /** The set every answer reports for the instance. */
  const reported = async (i: Instance) => {
    const [seen, row] = [await status(i), await listed(i)];
    expect(row.events).toEqual(seen.events);
    return seen.events as string[];
  };
  const webhookSets = async (i: Instance) =>
    (await harness.streamEvents(`instance-${i.instanceid}`))
      .filter((e) => e.type === 'WebhookSet')
      .map((e) => e.data['events']);

  it('an instance that never chose reports the default set, and a registration without events chooses it', async () => {
    const instance = await newInstance();
    expect(await reported(instance)).toEqual(DEFAULT);
    const on = expectSuccess(await webhook(instance, { webhookUrl: 'https://8.8.8.8/default' }));
    expect(on).toMatchObject({ webhookUrl: 'https://8.8.8.8/default', enabled: true, events: DEFAULT });
    expect(await reported(instance)).toEqual(DEFAULT);
  });

  const SOURCES: Array<[string, (i: Instance, p: Record<string, string>) => Promise<Answer>]> = [
    ['the instance host, GET query', (i, p) => get(api().apiUrl, '/webhook', { ...i, ...p })],
    ['the instance host, POST form', (i, p) => postForm(api().apiUrl, '/webhook', { ...i, ...p })],
    ['the instance host, POST JSON', (i, p) => postJson(api().apiUrl, '/webhook', { ...i, ...p })],
    ['the account host, GET query (4.6)', (i, p) => get(api().accountUrl, '/webhook', { ...i, ...p })],
  ];

  it.each(SOURCES)(
    '%s: order, repeats and spaces are ignored; the set comes back in canonical order everywhere',
    async (_name, send) => {
      const instance = await newInstance();
      const url = 'https://8.8.8.8/kinds';
      const chosen = expectSuccess(
        await send(instance, { webhookUrl: url, events: ' acks ,instance,acks,  messages' }),
      );
      expect(chosen).toMatchObject({ webhookUrl: url, enabled: true, events: ['messages', 'acks', 'instance'] });
      expect(await reported(instance)).toEqual(['messages', 'acks', 'instance']);
      expect(expectSuccess(await send(instance, { webhookUrl: url, events: 'ownMessages' })).events).toEqual([
        'ownMessages',
      ]);
      expect(await reported(instance)).toEqual(['ownMessages']);
    },
  );

  describe('a malformed events is 0002 at stage 1, with field events', () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await newInstance();
      expectSuccess(await webhook(instance, { webhookUrl: 'https://8.8.8.8/kept', events: 'acks' }));
    });

    it.each<[string, unknown]>([
      ['an unknown name', 'messages,bogus'],
      ['a name in another case', 'Messages'],
      ['a name with a tab around it', '\tmessages'],
      ['another separator', 'messages;acks'],
      ['an empty value', ''],
      ['a value of spaces', '   '],
      ['commas and spaces only', ' , '],
      ['a value over 256 characters', Array(30).fill('messages').join(',')],
      ['a JSON array', ['messages', 'acks']],
      ['a JSON number', 1],
      ['a JSON boolean', true],
    ])('%s', async (_case, events) => {
      const answer = await webhook(instance, { webhookUrl: 'https://8.8.8.8/other', events });
      expectFailure(answer, ['0002']);
      expect(answer.json.details).toEqual([expect.objectContaining({ code: '0002', field: 'events' })]);
      // Nothing changed.
      expect(await status(instance)).toMatchObject({ webhookUrl: 'https://8.8.8.8/kept', events: ['acks'] });
    });

    it('is reported together with the other form problems, and before authentication', async () => {
      const all = await webhook(instance, { token: '', webhookUrl: 'ftp://8.8.8.8/', events: 'everything' });
      expectFailure(all, ['0001', '0008', '0002']);
      expect(all.json.details.map((d: { field: string }) => d.field)).toEqual(['token', 'webhookUrl', 'events']);
      expectFailure(
        await webhook(instance, { token: `${instance.token}x`, webhookUrl: 'https://8.8.8.8/', events: ',' }),
        ['0002'],
      );
      const onAccountHost = await get(api().accountUrl, '/webhook', {
        ...instance,
        webhookUrl: 'https://8.8.8.8/',
        events: 'nope',
      });
      expectFailure(onAccountHost, ['0002']);
      expect(onAccountHost.json.details).toEqual([expect.objectContaining({ field: 'events' })]);
    });

    it('given twice in the query is ambiguous', async () => {
      const query = new URLSearchParams({ ...instance, webhookUrl: 'https://8.8.8.8/other' });
      query.append('events', 'acks');
      query.append('events', 'messages');
      const answer = await request(`${api().apiUrl}/webhook?${query}`);
      expectFailure(answer, ['0002']);
      expect(answer.json.details).toEqual([expect.objectContaining({ field: 'events' })]);
    });
  });

  it('the same URL and set records nothing new; another set, or omitting events after a choice, is a change', async () => {
    const instance = await newInstance();
    const url = 'https://8.8.8.8/changes';
    const register = async (params: Params) =>
      expectSuccess(await webhook(instance, { webhookUrl: url, ...params })).events;
    expect(await register({ events: 'acks,messages' })).toEqual(['messages', 'acks']);
    expect(await register({ events: 'messages , acks,acks' })).toEqual(['messages', 'acks']);
    expect(await webhookSets(instance)).toEqual([['messages', 'acks']]);

    expect(await register({ events: 'messages,ownMessages' })).toEqual(['messages', 'ownMessages']);
    expect(await register({})).toEqual(DEFAULT);
    expect(await register({ events: 'acks,ownMessages,messages' })).toEqual(DEFAULT);
    // A JSON null is no value, as for any optional parameter: the default set.
    expect(await register({ events: null })).toEqual(DEFAULT);
    expect(await webhookSets(instance)).toEqual([['messages', 'acks'], ['messages', 'ownMessages'], DEFAULT]);
    expect(await reported(instance)).toEqual(DEFAULT);
  });

  it('an empty webhookUrl keeps the set last chosen, whatever events says, and it is reported while no URL is registered', async () => {
    const never = await newInstance();
    expect(expectSuccess(await webhook(never, { webhookUrl: '', events: 'acks' }))).toMatchObject({
      webhookUrl: '',
      enabled: false,
      events: DEFAULT,
    });
    expect(await reported(never)).toEqual(DEFAULT);

    const instance = await newInstance();
    expectSuccess(await webhook(instance, { webhookUrl: 'https://8.8.8.8/off-later', events: 'instance,messages' }));
    const off = expectSuccess(await webhook(instance, { webhookUrl: '', events: 'acks' }));
    expect(off).toMatchObject({ webhookUrl: '', enabled: false, events: ['messages', 'instance'] });
    expect(await status(instance)).toMatchObject({ webhookUrl: '', enabled: false, events: ['messages', 'instance'] });
    expect(await listed(instance)).toMatchObject({
      webhookUrl: '',
      webhookEnabled: false,
      events: ['messages', 'instance'],
    });
    // Ignored, it is not checked either: a malformed one changes nothing and is not refused.
    expect(expectSuccess(await webhook(instance, { webhookUrl: '', events: 'bogus' }))).toMatchObject({
      enabled: false,
      events: ['messages', 'instance'],
    });
    const recorded = await harness.streamEvents(`instance-${instance.instanceid}`);
    expect(recorded.map((e) => e.type).filter((type) => type.startsWith('Webhook'))).toEqual([
      'WebhookSet',
      'WebhookCleared',
    ]);
    expect(await reported(instance)).toEqual(['messages', 'instance']);
  });
});
