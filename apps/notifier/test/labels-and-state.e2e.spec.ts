import { expectSuccess, postJson, runOpsAsync } from '@gw/testing';
import { loggedAttempts, subscribed } from './support/delivery-fixtures';
import { sleep, until, type Instance } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * docs/api.md 13.1 to 13.4 as a receiver and an account holder see them, end to end: the built API
 * and notifier as processes, a real receiver, on both stores. The label travels in every body; each
 * change of connection state is a notification of its own when `state` is chosen; getUsage counts
 * delivered notifications and failed attempts; `audit verify` rebuilds the usage model to the same rows.
 */
// The first three tests, each on its own instance, side by side; the last (audit verify reads the
// whole store) once they are done.
const STACKS = stacksOnStores({ RETRY_SCHEDULE: '1,1,1' });

describe.each(STACKS)('labels, connection states and usage, on %s', (_store, on) => {
  const subscribe = (events?: string) => subscribed(on.stack, on.receiver, undefined, events);
  const label = async (instance: Instance, value: string) =>
    expectSuccess(await on.stack.asAccount('/setInstanceLabel', { instanceid: instance.instanceid, label: value }));
  const bodies = async (path: string, n: number) => {
    await until(`${n} notifications`, () => on.receiver.at(path).length >= n);
    await sleep(700);
    return on.receiver.at(path).map((r) => r.json);
  };

  it.concurrent('every body carries the label from when it is set, and none once it is removed', async () => {
    const { instance, path } = await subscribe('messages,acks,state');
    await on.stack.message(instance, { id: 'l-1' });
    await bodies(path, 1);
    await label(instance, 'shop-berlin');
    await on.stack.message(instance, { id: 'l-2' });
    await bodies(path, 2);
    await on.stack.ack(instance, { id: 'l-2', chatId: 'chat-1@c.us', status: 'read', time: 1_700_000_100 });
    await bodies(path, 3);
    await on.stack.state(instance, 'authorized', 1_767_225_600);
    await bodies(path, 4);
    await label(instance, '');
    await on.stack.message(instance, { id: 'l-3' });
    const got = await bodies(path, 5);
    expect(got.map((b) => [b.sequence, b.label])).toEqual([
      [1, undefined],
      [2, 'shop-berlin'],
      [3, 'shop-berlin'],
      [4, 'shop-berlin'],
      [5, undefined],
    ]);
    expect(Object.keys(got[1])).toEqual(['instanceId', 'sequence', 'label', 'messages']);
    expect(got[4]).not.toHaveProperty('label');
    // getNotifications gives the same bodies.
    const listed = expectSuccess(await postJson(on.stack.api.apiUrl, '/getNotifications', instance));
    expect(listed.notifications.map((n: { body: unknown }) => n.body)).toEqual(got);
  });

  it.concurrent(
    'each change of state is its own notification in the sequence, its since equal to getInstanceState',
    async () => {
      const { instance, path } = await subscribe('messages, state');
      await label(instance, 'eu-1');
      await on.stack.state(instance, 'qr', 1_767_225_600);
      await on.stack.message(instance, { id: 's-1' });
      await on.stack.state(instance, 'authorized', 1_767_225_660);
      // The same state again is no change: nothing is recorded, so nothing is notified.
      await on.stack.state(instance, 'authorized', 1_767_225_999);
      const got = await bodies(path, 3);
      expect(got).toHaveLength(3);
      expect(got[0]).toEqual({
        instanceId: instance.instanceid,
        sequence: 1,
        label: 'eu-1',
        state: { state: 'qr', since: '2026-01-01T00:00:00.000Z' },
      });
      expect(got[1]).toEqual(expect.objectContaining({ sequence: 2, label: 'eu-1', messages: [expect.anything()] }));
      expect(got[2]).toEqual({
        instanceId: instance.instanceid,
        sequence: 3,
        label: 'eu-1',
        state: { state: 'authorized', since: '2026-01-01T00:01:00.000Z' },
      });
      const now = expectSuccess(await postJson(on.stack.api.apiUrl, '/getInstanceState', instance));
      expect(now.since).toBe(got[2].state.since);
      expect(now.state).toBe('authorized');
    },
  );

  it.concurrent('under the default set, a change of state is not notified (state is opt-in)', async () => {
    const { instance, path } = await subscribe();
    await on.stack.state(instance, 'blocked', 1_767_225_600);
    await on.stack.message(instance, { id: 'd-1' });
    const got = await bodies(path, 1);
    expect(got).toEqual([expect.objectContaining({ sequence: 1, messages: [expect.anything()] })]);
    expect(expectSuccess(await postJson(on.stack.api.apiUrl, '/getWebhookStatus', instance)).events).toEqual([
      'messages',
      'ownMessages',
      'acks',
    ]);
  });

  it('getUsage counts notifications answered 2xx and failed attempts; audit verify rebuilds usage to the same rows', async () => {
    const { instance, path } = await subscribe();
    on.receiver.plan(path, [{ kind: 'status', status: 500 }, { kind: 'status', status: 503 }, { kind: 'ok' }]);
    await on.stack.message(instance, { id: 'g-1' });
    await loggedAttempts(on.stack, instance, 3);
    await on.stack.message(instance, { id: 'g-2' });
    await loggedAttempts(on.stack, instance, 4);
    const day = new Date().toISOString().slice(0, 10);
    const answer = expectSuccess(await on.stack.asAccount('/getUsage', { from: day, to: day }));
    expect(answer.usage.find((u: { instanceid: string }) => u.instanceid === instance.instanceid)).toEqual({
      instanceid: instance.instanceid,
      day,
      messages: 2,
      acks: 0,
      notificationsDelivered: 2,
      attemptsFailed: 2,
    });
    expect(answer.totals.notificationsDelivered).toBeGreaterThanOrEqual(2);
    const verify = await runOpsAsync(on.stack.dataDir, ['audit', 'verify'], on.stack.apiEnv);
    expect(verify.stderr).toBe('');
    expect(JSON.parse(verify.stdout)).toEqual(
      expect.objectContaining({ verified: true, readModels: ['instances', 'webhook-logs', 'usage'] }),
    );
  });
});
