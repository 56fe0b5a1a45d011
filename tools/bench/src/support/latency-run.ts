import { epochMs } from '@gw/testing/receiver';
import { messageIdsOf } from './arrivals';
import { percentile } from './figures';
import type { NotifierStack } from './notifier-stack';
import { openLoop } from './open-loop';
import { timeline, type Timed, type TimelineWindow } from './timeline';
import { benchMessage } from './traffic';

/** p50, p99 and max of a set of samples (ms). */
export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface LatencyRun {
  offeredPerSecond: number;
  sent: number;
  /** Calls answered 200 or 202 (recorded). */
  accepted: number;
  /** Answers by HTTP status (0: no answer), accepted ones included. */
  statuses: Record<string, number>;
  /** Calls that failed otherwise (no answer, or an answer the run did not expect). */
  failures: number;
  /** Accepted messages that had not arrived when the run stopped waiting. */
  lost: number;
  /** Requests the receiver got that carried at least one of the run's messages. */
  requests: number;
  /** Sent → received, of every message that arrived. */
  latency: Spread;
  /** Sent → answered, of every call. */
  answer: Spread;
  /** Answered → received. */
  afterAnswer: Spread;
  /** The most messages accepted and not yet received at once, sampled every 100 ms. */
  maxBacklog: number;
  /** Latency and answer time per half second of sending (in the raw results, not a figure). */
  timeline: TimelineWindow[];
}

/** The timeline's window. */
const TIMELINE_WINDOW_MS = 500;

const spread = (samples: number[]): Spread => ({
  p50: percentile(samples, 50),
  p99: percentile(samples, 99),
  max: percentile(samples, 100),
});

/**
 * Offers messages at `rate` for `seconds` (an open loop) through `send(instanceIndex, n)`, which
 * answers the HTTP status; each arrival at the stack's receiver carries the message id, so latency
 * is receiver arrival minus send time. Waits up to `drainMs` for what was accepted to arrive.
 */
export async function latencyRun(
  stack: NotifierStack,
  rate: number,
  seconds: number,
  runId: string,
  send: (index: number, n: number) => Promise<number>,
  drainMs = 30_000,
): Promise<LatencyRun> {
  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const afterAnswer: number[] = [];
  /** Each arrived message's latency, and each call's answer time, with when it was sent. */
  const latencies: Timed[] = [];
  const answers: Timed[] = [];
  const statuses: Record<string, number> = {};
  let accepted = 0;
  let requests = 0;
  let maxBacklog = 0;
  stack.receiver.onRequest = ({ json, arrivedAt }) => {
    // A batched notification carries several messages; each has its own latency.
    let ours = false;
    for (const id of messageIdsOf(json)) {
      const at = sentAt.get(id);
      if (at === undefined || !sentAt.delete(id)) continue;
      ours = true;
      latencies.push([at, arrivedAt - at]);
      const answered = answeredAt.get(id);
      if (answered !== undefined) afterAnswer.push(arrivedAt - answered);
    }
    if (ours) requests += 1;
  };
  const sampler = setInterval(() => (maxBacklog = Math.max(maxBacklog, accepted - latencies.length)), 100);
  const instances = stack.instances.length;
  try {
    const offered = await openLoop(rate, seconds, async (k) => {
      const index = k % instances;
      const n = Math.floor(k / instances) + 1;
      const id = benchMessage(runId, index, n).id;
      const sent = epochMs();
      sentAt.set(id, sent);
      let status = 0;
      try {
        status = await send(index, n);
      } finally {
        statuses[status] = (statuses[status] ?? 0) + 1;
        const answered = epochMs();
        answers.push([sent, answered - sent]);
        if (status === 200 || status === 202) {
          accepted += 1;
          if (sentAt.has(id)) answeredAt.set(id, answered);
        } else sentAt.delete(id);
      }
      // A refusal the gateway retries (0010 with Retry-After, 0011) is an answer, not a failure.
      if (status !== 200 && status !== 202 && status !== 429 && status !== 503) throw new Error(`answered ${status}`);
    });
    const deadline = Date.now() + drainMs;
    while (sentAt.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      offeredPerSecond: offered.sent / offered.seconds,
      sent: offered.sent,
      accepted,
      statuses,
      failures: offered.failures,
      lost: sentAt.size,
      requests,
      latency: spread(latencies.map(([, ms]) => ms)),
      answer: spread(answers.map(([, ms]) => ms)),
      afterAnswer: spread(afterAnswer),
      maxBacklog,
      timeline: timeline(latencies, answers, TIMELINE_WINDOW_MS),
    };
  } finally {
    clearInterval(sampler);
  }
}
