import { NodeChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, type ScenarioResult } from '../support/figures';
import { ApiFixture, postJson } from '../support/api-fixture';
import { load, type LoadOptions, type LoadResult } from '../support/load';

/** Warm-up run (JIT, connections), then the measured run. */
async function warmAndLoad(
  ctx: BenchContext,
  options: Omit<LoadOptions, 'seconds' | 'connections'>,
): Promise<LoadResult> {
  await load({ ...options, connections: ctx.sizes.connections, seconds: ctx.sizes.warmUpSeconds });
  return load({ ...options, connections: ctx.sizes.connections, seconds: ctx.sizes.httpSeconds });
}

const path = '/getWebhookStatus';

/** getWebhookStatus under load on an API started with `env` on top of the bench's defaults. */
async function statusLoad(
  ctx: BenchContext,
  label: string,
  env: Record<string, string>,
): Promise<{ result: LoadResult; answer: string; requestBody: string }> {
  const fixture = await ApiFixture.start(ctx, label, env);
  try {
    const [instance] = await fixture.instances(1);
    await fixture.webhook(instance, 'https://8.8.8.8/a');
    const requestBody = JSON.stringify(instance);
    const answer = await (await postJson(`${fixture.api.url('instance')}${path}`, instance)).text();
    if (!answer.startsWith('{"success":true')) throw new Error(`getWebhookStatus failed: ${answer}`);
    ctx.log(
      `a: API getWebhookStatus${env['LOG_LEVEL'] ? ` at LOG_LEVEL=${env['LOG_LEVEL']}` : ''}, ${ctx.sizes.connections} connections, ${ctx.sizes.httpSeconds} s`,
    );
    const result = await warmAndLoad(ctx, {
      origin: fixture.api.url('instance'),
      path,
      method: 'POST',
      body: requestBody,
      expectBody: answer,
    });
    return { result, answer, requestBody };
  } finally {
    await fixture.stop();
  }
}

/**
 * a. getWebhookStatus (POST, JSON body) on a running API against a bare node:http server that answers
 * a body of the same size: requests/s, p50 and p99 of both, same load generator, same connections.
 * The API runs at LOG_LEVEL=warn like the other scenarios, and once more at info, the level `npm
 * start` logs at (one request line per call): an outside probe of `npm start` measures that one.
 */
export async function scenarioA(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const { result: api, answer, requestBody } = await statusLoad(ctx, 'a', {});
  const { result: atInfo } = await statusLoad(ctx, 'a-info', { LOG_LEVEL: 'info' });

  ctx.log('a: baseline, bare node:http server');
  const bare = NodeChild.start('bare-server', ['--body-base64', Buffer.from(answer).toString('base64')]);
  let baseline: LoadResult;
  try {
    const { port } = await bare.nextLine<{ port: number }>();
    baseline = await warmAndLoad(ctx, {
      origin: `http://127.0.0.1:${port}`,
      path,
      method: 'POST',
      body: requestBody,
      expectBody: answer,
    });
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
      figure('a.rpsInfo', "requests/s at LOG_LEVEL=info (npm start's level)", '', atInfo.rps, baseline.rps),
    ],
    raw: { api, atInfo, baseline, answerBytes: Buffer.byteLength(answer), connections: ctx.sizes.connections },
    seconds: (performance.now() - started) / 1000,
  };
}
