import { expectSuccess, request } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import { INTERNAL_TOKEN, selfService, type Instance, type SelfService } from './support/self-service';

/** docs/api.md section 6: past INGEST_MAX_IN_FLIGHT recordings in flight, the ingest host answers
 * 0010 with Retry-After at once and records nothing of that request; what it accepted is recorded. */

async function inFlightMetric(store: ApiOnStore): Promise<number> {
  const { text } = await request(`${store.api.internalUrl}/metrics`, {
    headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
  });
  const line = text.split('\n').find((l) => l.startsWith('gw_ingest_in_flight '));
  if (!line) throw new Error('gw_ingest_in_flight missing from /metrics');
  return Number(line.split(' ')[1]);
}

describe.each(STORES)('ingest load shedding on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  let c: SelfService;
  let instance: Instance;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN, INGEST_MAX_IN_FLIGHT: '2' });
    c = selfService(store);
    instance = await c.newInstance(await c.newAccount());
  }, 60_000);
  afterAll(() => store?.stop());

  it('answers a burst past the bound 0010 with Retry-After, records exactly the messages it accepted, and takes more once the burst is over', async () => {
    const ids = Array.from({ length: 80 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(ids.map((id) => c.ingest(instance.instanceid, 'messages', id)));
    const accepted = ids.filter((_, i) => answers[i].status === 202);
    const refused = answers.filter((a) => a.status !== 202);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.json).toMatchObject({ success: false, msg: ['0010'] });
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    const recorded = (await store.streamEvents(`inbox-${instance.instanceid}`)).map(
      (e) => (e.data['message'] as { id: string }).id,
    );
    expect(recorded.sort()).toEqual([...accepted].sort());
    expect(await inFlightMetric(store)).toBe(0);
    // One at a time stays under the bound: every one is taken.
    for (const id of ['after-1', 'after-2', 'after-3'])
      expect((await c.ingest(instance.instanceid, 'messages', id)).status).toBe(202);
    expectSuccess(await c.status(instance));
  });
});
