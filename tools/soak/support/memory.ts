import { readFileSync } from 'node:fs';
import { WebSocket } from 'undici';

const MiB = 1024 * 1024;

/** The event the DevTools protocol sends for an uncaught exception. */
interface ExceptionThrown {
  exceptionDetails: { text: string; exception?: { description?: string } };
}

/**
 * A DevTools-protocol session with a child started with `--inspect=127.0.0.1:0`, used only to read
 * its heap after a full garbage collection: no product code has to expose anything for the soak.
 */
export class Inspector {
  /** Uncaught exceptions and unhandled rejections the child reported. With a debugger attached, Node
   * sends them here instead of printing them, and the child waits for the debugger to go away. */
  readonly uncaught: string[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const reply = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: ExceptionThrown;
        result?: unknown;
        error?: { message: string };
      };
      if (reply.method === 'Runtime.exceptionThrown' && reply.params) {
        const details = reply.params.exceptionDetails;
        this.uncaught.push(String(details.exception?.description ?? details.text));
      }
      const waiter = reply.id === undefined ? undefined : this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id!);
      if (reply.error) waiter.reject(new Error(reply.error.message));
      else waiter.resolve(reply.result);
    });
    socket.addEventListener('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('inspector connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the debugger URL the child printed on stderr (`Debugger listening on ws://…`), and
   * subscribes to the child's uncaught exceptions. */
  static async connect(output: string): Promise<Inspector> {
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
    if (!url) throw new Error('the child printed no debugger URL; was it started with --inspect?');
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
    });
    const inspector = new Inspector(socket);
    await inspector.call('Runtime.enable');
    return inspector;
  }

  call(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} got no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          then(value);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Bytes of V8 heap in use right after a full collection. */
  async heapAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize;
  }

  close(): void {
    this.socket.close();
  }
}

/** Resident set size of a process, from /proc/<pid>/status (VmRSS, in kB). */
export function rssBytes(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kB === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kB) * 1024;
}

/** CPU time a process has used, user and system, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface Sample {
  /** Milliseconds since measuring began (after the warm-up). */
  at: number;
  heap: number;
  rss: number;
  /** CPU seconds used so far (reported, never asserted). */
  cpu: number;
}

/**
 * When memory counts as growing: the median of the last window exceeds the first window's by more
 * than BOTH the relative and the absolute bound.
 *
 * - Heap after GC, 20 % and 10 MiB: these apps hold about 15 to 25 MiB after a full collection,
 *   and that settles only gradually (optimised code, inline caches, lazily loaded modules) and
 *   grows with the data: the API's instance-row and secret caches (bounded at 20,000 and 100,000
 *   entries) and the notifier's state of every instance (unbounded by design) take about 0.7 KiB
 *   per instance created, some 2 MiB per 10 minutes at the default mix. The 10 MiB floor keeps
 *   that from failing runs of up to about half an hour; the 20 % only matters for a heap over
 *   50 MiB, where a swing of 10 MiB means less. At 200 requests/s this catches a leak of about
 *   1 KiB per request in the 1-minute run and about 100 bytes per request in a 10-minute run.
 * - RSS, 25 % and 40 MiB: RSS also moves with things that are not leaks: malloc arenas and
 *   fragmentation, V8 giving pages back lazily, the WAL index, and above all SQLite's page cache,
 *   up to 16 MB per connection in better-sqlite3's build (two in the API), which fills as the
 *   files grow: over 10 minutes the notifier's RSS rose by 24 MiB and levelled off while its heap
 *   grew by 2 MiB. So its bounds are wider; RSS is there to catch native leaks that the V8 heap
 *   does not show.
 */
export const GROWTH_LIMITS = {
  heap: { relative: 0.2, absolute: 10 * MiB },
  rss: { relative: 0.25, absolute: 40 * MiB },
} as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The samples compared: the first and last minute, or, in a run of under two minutes, the first
 * and last third of the samples (the warm-up before measuring is left out either way). */
function windows(samples: Sample[], measuredMs: number): { first: Sample[]; last: Sample[] } {
  if (measuredMs < 120_000) {
    const third = Math.max(1, Math.floor(samples.length / 3));
    return { first: samples.slice(0, third), last: samples.slice(-third) };
  }
  const end = samples.length ? samples[samples.length - 1].at : 0;
  return { first: samples.filter((s) => s.at < 60_000), last: samples.filter((s) => s.at > end - 60_000) };
}

export interface Growth {
  metric: 'heap' | 'rss';
  first: number;
  last: number;
  /** Over both bounds of GROWTH_LIMITS. */
  growing: boolean;
}

/** First against last window, for heap after GC and for RSS. */
export function growth(samples: Sample[], measuredMs: number): Growth[] {
  const { first, last } = windows(samples, measuredMs);
  return (['heap', 'rss'] as const).map((metric) => {
    const before = median(first.map((s) => s[metric]));
    const after = median(last.map((s) => s[metric]));
    const limit = GROWTH_LIMITS[metric];
    return {
      metric,
      first: before,
      last: after,
      growing: after - before > limit.absolute && after - before > limit.relative * before,
    };
  });
}

/** The samples by minute (by third in a run of under two minutes), for the report's trends. */
function periods(samples: Sample[], measuredMs: number): Sample[][] {
  const groups: Sample[][] = [];
  if (measuredMs < 120_000) {
    const size = Math.max(1, Math.ceil(samples.length / 3));
    for (let i = 0; i < samples.length; i += size) groups.push(samples.slice(i, i + size));
    return groups;
  }
  const lastMinute = Math.floor(measuredMs / 60_000) - 1;
  for (const s of samples) (groups[Math.min(Math.floor(s.at / 60_000), lastMinute)] ??= []).push(s);
  return groups.filter((g) => g?.length);
}

/** How memory and CPU moved over the run, period by period: reported, not part of the verdict.
 * `cpu` is the share of one core used from the end of the previous period to the end of this one. */
export function trend(samples: Sample[], measuredMs: number): { heap: number[]; rss: number[]; cpu: number[] } {
  const groups = periods(samples, measuredMs);
  const ends = [samples[0], ...groups.map((g) => g[g.length - 1])];
  return {
    heap: groups.map((g) => median(g.map((s) => s.heap))),
    rss: groups.map((g) => median(g.map((s) => s.rss))),
    cpu: groups.map((_, i) => (ends[i + 1].cpu - ends[i].cpu) / Math.max(0.001, (ends[i + 1].at - ends[i].at) / 1000)),
  };
}

export const mib = (bytes: number) => (bytes / MiB).toFixed(1);
