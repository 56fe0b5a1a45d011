import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The least time between two group commits under a steady stream of appends while another process
 * writes to the same file. Each transaction then has a cost of its own (taking the write lock from
 * the other process, reading the pages it touches again after the other's commit, writing them,
 * the fsync), so fewer, larger groups cost less CPU per append: at 2,000 messages/s (bench i) 4 ms
 * took the API's and the notifier's CPU per message about a tenth lower, 2 ms half that, 8 ms
 * little more at a higher median. Alone on the file it is not applied: clients that wait for their
 * answers (four connections, say) lost half their throughput to it (bench/README).
 */
const GROUP_INTERVAL_MS = 4;

/** The group interval an embedded store was given (SqliteEventStoreOptions.groupIntervalMs), checked. */
export function groupInterval(ms: number = GROUP_INTERVAL_MS): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`groupIntervalMs must be a number of milliseconds, 0 or more, not ${ms}`);
  return ms;
}

/** What one request of a group came to: its result, or the error that refused it alone. */
export type GroupOutcome<Result> = { result: Result } | { error: unknown };

interface Waiting<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Collects requests into groups and commits each group at once: the requests submitted in one turn
 * of the event loop (the requests of many clients, the outcomes of many deliveries) form a group,
 * and every request submitted while a group is being committed joins the next one. `commit` writes a whole group (one transaction,
 * one fsync) and returns an outcome per request; if it throws, every request of the group fails
 * with that error. A request's promise settles only after its group's commit returned.
 *
 * Under a steady stream of requests the groups may follow one another at most every `minIntervalMs`:
 * a group of requests that arrived while the one before it was being committed is cut no sooner
 * than that after the one before was cut, so that more of them share its transaction. A request
 * that finds nothing being committed is cut on the next turn as always, so a client that waits for
 * each answer before it sends the next request never waits for the interval.
 */
export class GroupCommit<Request, Result> {
  private waiting: Array<Waiting<Request, Result>> = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private requests = 0;
  private commits = 0;

  constructor(
    private readonly commit: (group: readonly Request[]) => Promise<Array<GroupOutcome<Result>>>,
    /** Called after each group committed, before its requests' promises settle. */
    private readonly committed: (outcomes: ReadonlyArray<GroupOutcome<Result>>) => void = () => undefined,
    /** The least time between the cuts of two groups that follow one another without a pause (0:
     * none), asked before each cut. */
    private readonly minIntervalMs: () => number = () => 0,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.running) return;
      this.running = true;
      // Cut on the next turn, so that everything this turn submits shares the group.
      this.loop = new Promise<void>((next) => setImmediate(next)).then(() => this.run());
    });
  }

  /** Resolves once every request submitted so far has settled. */
  drained(): Promise<void> {
    return this.loop;
  }

  /** Requests and group commits so far: group commit shows as fewer commits than requests. */
  get stats(): { requests: number; commits: number } {
    return { requests: this.requests, commits: this.commits };
  }

  private async run(): Promise<void> {
    let cutAt = -Infinity;
    while (this.waiting.length > 0) {
      // These requests came while the group before was committed (or this is the first group).
      // A timer may fire a little early by this clock (its start is the loop's cached time): wait
      // again for what is left.
      const due = cutAt + this.minIntervalMs();
      for (let early = due - performance.now(); early > 0; early = due - performance.now())
        await sleep(Math.ceil(early));
      cutAt = performance.now();
      const group = this.waiting;
      this.waiting = [];
      let outcomes: Array<GroupOutcome<Result>>;
      try {
        outcomes = await this.commit(group.map((w) => w.request));
      } catch (error) {
        for (const w of group) w.reject(error);
        continue;
      }
      this.commits += 1;
      this.requests += group.length;
      this.committed(outcomes);
      group.forEach((w, i) => {
        const outcome = outcomes[i];
        if ('result' in outcome) w.resolve(outcome.result);
        else w.reject(outcome.error);
      });
    }
    this.running = false;
  }
}
