import { NodeChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, type ScenarioResult } from '../support/figures';
import { ApiFixture, postJson } from '../support/api-fixture';
import { load, type LoadOptions, type LoadResult } from '../support/load';

/** Warm-up run (JIT, connections), then the measured run. */
export async function warmAndLoad(ctx: BenchContext, options: Omit<LoadOptions, 'seconds' | 'connections'>): Promise<LoadResult> {
  await load({ ...options, connections: ctx.sizes.connections, seconds: ctx.sizes.warmUpSeconds });
  return load({ ...options, connections: ctx.sizes.connections, seconds: ctx.sizes.httpSeconds });
}

/**
 * a. getWebhookStatus (POST, JSON body) on a running API against a bare node:http server that answers
 * a body of the same size: requests/s, p50 and p99 of both, same load generator, same connections.
 */
export async function scenarioA(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const fixture = await ApiFixture.start(ctx, 'a');
  let api: LoadResult;
  let answer: string;
  const path = '/getWebhookStatus';
  let requestBody: string;
  try {
    const [instance] = await fixture.instances(1);
    await fixture.webhook(instance, 'https://8.8.8.8/a');
    requestBody = JSON.stringify(instance);
    answer = await (await postJson(`${fixture.api.url('instance')}${path}`, instance)).text();
    if (!answer.startsWith('{"success":true')) throw new Error(`getWebhookStatus failed: ${answer}`);
    ctx.log(`a: API getWebhookStatus, ${ctx.sizes.connections} connections, ${ctx.sizes.httpSeconds} s`);
    api = await warmAndLoad(ctx, { origin: fixture.api.url('instance'), path, method: 'POST', body: requestBody, expectBody: answer });
  } finally {
    await fixture.stop();
  }

  ctx.log('a: baseline, bare node:http server');
  const bare = NodeChild.start('bare-server', ['--body-base64', Buffer.from(answer).toString('base64')]);
  let baseline: LoadResult;
  try {
    const { port } = await bare.nextLine<{ port: number }>();
    baseline = await warmAndLoad(ctx, { origin: `http://127.0.0.1:${port}`, path, method: 'POST', body: requestBody, expectBody: answer });
  } finally {
    await bare.stop();
  }
  return {
    id: 'a',
    title: 'getWebhookStatus (POST JSON, keep-alive)',
    baseline: 'bare node:http server, same answer size',
    figures: [
      figure('a.rps', 'requests/s', '', api.rps, baseline.rps, { on: 'ratio', op: '>=', target: 0.5 }),
      figure('a.p50', 'p50 latency', 'ms', api.p50, baseline.p50),
      figure('a.p99', 'p99 latency', 'ms', api.p99, baseline.p99, { on: 'value', op: '<=', target: 10 }),
    ],
    raw: { api, baseline, answerBytes: Buffer.byteLength(answer), connections: ctx.sizes.connections },
    seconds: (performance.now() - started) / 1000,
  };
}
