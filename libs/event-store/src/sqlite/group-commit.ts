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
    while (this.waiting.length > 0) {
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
