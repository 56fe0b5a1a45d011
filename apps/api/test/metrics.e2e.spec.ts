import { ApiProcess, createAccount, expectFailure, expectSuccess, get, postJson, rawHttp, request } from '@gw/testing';

// Issue 11, point 3: the API's metrics on the internal host (requests, latency, the event store's
// appends and group commits, read-model lag), read from the real process as Prometheus would.
const INTERNAL_TOKEN = 'metrics-spec-internal-token-0123456789';
const bearer = { authorization: `Bearer ${INTERNAL_TOKEN}` };

async function scrape(api: ApiProcess): Promise<string> {
  const answer = await request(`${api.internalUrl}/metrics`, { headers: bearer });
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^text\/plain/);
  return answer.text;
}

/** The value of the series `name` with exactly these labels; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = Object.entries(labels);
    if (Object.keys(got).length === wanted.length && wanted.every(([k, v]) => got[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const requests = (host: string, operation: string, status: string, code: string) => ({ host, operation, status, code });

describe('API metrics on the internal host', () => {
  let api: ApiProcess;
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { INTERNAL_TOKEN } });
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  it('counts requests by operation and answer, times them, and never labels a series with a path', async () => {
    const account = createAccount(api.dataDir, 'metrics@example.com');
    const created = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    expectFailure(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: 'gwk_wrong', packageid: 'trial' }),
      ['0003'],
    );
    const message = { id: 'm1', chatId: 'c1', time: 1_700_000_000 };
    expectFailure(await postJson(api.internalUrl, '/instances/no-such-instance/messages', message), ['0014'], 401);
    const noSuch = await request(`${api.internalUrl}/instances/no-such-instance/messages`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
    expectFailure(noSuch, ['0005'], 404);
    expectFailure(await get(api.accountUrl, '/no-such-path-7f3a9'), ['0013'], 404);
    expectFailure(await request(`${api.internalUrl}/instances/abc/nothing-4711`, { headers: bearer }), ['0013'], 404);
    expect(created.instanceid).toEqual(expect.any(String));

    const text = await scrape(api);
    expect(sample(text, 'gw_api_requests_total', requests('account', 'createInstance', '200', '0000'))).toBe(1);
    expect(sample(text, 'gw_api_requests_total', requests('account', 'createInstance', '200', '0003'))).toBe(1);
    expect(sample(text, 'gw_api_requests_total', requests('internal', 'recordMessage', '401', '0014'))).toBe(1);
    expect(sample(text, 'gw_api_requests_total', requests('internal', 'recordMessage', '404', '0005'))).toBe(1);
    expect(sample(text, 'gw_api_requests_total', requests('account', 'unknown', '404', '0013'))).toBe(1);
    expect(sample(text, 'gw_api_requests_total', requests('internal', 'unknown', '404', '0013'))).toBe(1);
    expect(
      sample(text, 'gw_api_request_duration_seconds_count', { host: 'account', operation: 'createInstance' }),
    ).toBe(2);
    expect(
      sample(text, 'gw_api_request_duration_seconds_count', { host: 'internal', operation: 'recordMessage' }),
    ).toBe(2);
    expect(
      sample(text, 'gw_api_request_duration_seconds_sum', { host: 'account', operation: 'createInstance' }),
    ).toBeGreaterThan(0);
    // The smallest bucket is half a millisecond, the largest finite one 2 s.
    expect(
      sample(text, 'gw_api_request_duration_seconds_bucket', {
        host: 'account',
        operation: 'createInstance',
        le: '0.0005',
      }),
    ).toBeDefined();
    expect(
      sample(text, 'gw_api_request_duration_seconds_bucket', { host: 'account', operation: 'createInstance', le: '2' }),
    ).toBeDefined();

    // What clients sent is in no series: only operation names from the route tables.
    expect(text).not.toContain('no-such-path-7f3a9');
    expect(text).not.toContain('nothing-4711');
    expect(text).not.toContain('no-such-instance');
    const operations = new Set([...text.matchAll(/^gw_api_\w+\{[^}]*operation="([^"]*)"/gm)].map((m) => m[1]));
    for (const operation of operations) expect(operation).toMatch(/^[a-zA-Z]+$/);
    expect(operations).toContain('unknown');

    // The scrape above is counted once it has been answered.
    expect(
      sample(await scrape(api), 'gw_api_requests_total', requests('internal', 'metrics', '200', '0000')),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts what the listener refuses before routing too: an HTTP/1.1 request without Host', async () => {
    const series = requests('account', 'unknown', '400', '0009');
    const before = sample(await scrape(api), 'gw_api_requests_total', series) ?? 0;
    const answer = await rawHttp(api.accountUrl, 'GET /listInstances HTTP/1.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 400 /);

    expect(sample(await scrape(api), 'gw_api_requests_total', series)).toBe(before + 1);
    const logged = api.output
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes('"path":"/listInstances"'));
    expect(logged.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ host: 'account', method: 'GET', status: 400 }),
    ]);
  });

  it('shows appends and group commits move after a write, and the read models caught up', async () => {
    const account = createAccount(api.dataDir, 'metrics-writes@example.com');
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    const before = await scrape(api);
    const moved = [
      ['gw_event_store_append_duration_seconds_count', { outcome: 'ok' }],
      ['gw_event_store_group_commit_appends_count', {}],
      ['gw_event_store_group_commit_events_count', {}],
      ['gw_event_store_group_commit_events_sum', {}],
      ['gw_event_store_group_commit_duration_seconds_count', {}],
    ] as const;
    for (const [name, labels] of moved) expect(sample(before, name, labels)).toBeGreaterThanOrEqual(1);

    const accepted = await request(`${api.internalUrl}/instances/${instance.instanceid}/messages`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'm-write', chatId: 'c1', time: 1_700_000_000, body: 'hello' }),
    });
    expect(accepted.status).toBe(202);

    const after = await scrape(api);
    for (const [name, labels] of moved)
      expect(sample(after, name, labels)).toBeGreaterThan(sample(before, name, labels)!);
    expect(sample(after, 'gw_event_store_append_duration_seconds_sum', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(after, 'gw_api_requests_total', requests('internal', 'recordMessage', '202', '0000'))).toBe(1);

    // Nothing is written any more: the read models reach the head, and both lag gauges read 0.
    const deadline = Date.now() + 10_000;
    let text = after;
    while (
      !(sample(text, 'gw_read_model_lag_events') === 0 && sample(text, 'gw_read_model_lag_seconds') === 0) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await scrape(api);
    }
    expect({
      events: sample(text, 'gw_read_model_lag_events'),
      seconds: sample(text, 'gw_read_model_lag_seconds'),
    }).toEqual({ events: 0, seconds: 0 });
  });
});
