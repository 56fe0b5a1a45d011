/** What the scheduler needs of the configuration (docs/api.md section 11). */
export interface FairShares {
  /** NOTIFIER_CONCURRENCY: requests in flight at once, over all accounts. */
  total: number;
  /** NOTIFIER_ACCOUNT_CONCURRENCY: requests in flight at once for one account's instances. */
  perAccount: number;
  /** NOTIFIER_ENDPOINT_CONCURRENCY: requests in flight at once to one receiver origin. */
  perEndpoint: number;
}

/** An instance with an attempt due now, and what its attempt would take a share of. */
export interface DueInstance {
  instanceId: string;
  accountId: string;
  /** The origin (scheme, host and port) of the URL it would be sent to. */
  endpoint: string;
}

/**
 * Shares the notifier's delivery slots (docs/api.md section 11) so that receivers that hang, fail
 * or are slow cost only their own account: at most `perAccount` requests in flight for one account
 * and `perEndpoint` to one origin, and a free slot goes to the account with the fewest requests in
 * flight (the one served longest ago on a tie), and within it to the instance served longest ago.
 * One request per instance at a time is the delivery loop's rule; this never offers an instance twice.
 * A slot is held from `choose` until `finished`.
 */
export class FairScheduler {
  private inFlightTotal = 0;
  private readonly byAccount = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();
  /** When an account or an instance was last given a slot (a counter, not a time). An entry per
   * instance that was ever due: about 100 bytes each. */
  private readonly accountServed = new Map<string, number>();
  private readonly instanceServed = new Map<string, number>();
  private served = 0;

  constructor(private readonly shares: FairShares) {}

  get inFlight(): number {
    return this.inFlightTotal;
  }

  /** Whether no slot is free at all: nothing due can start before an attempt finishes. */
  get full(): boolean {
    return this.inFlightTotal >= this.shares.total;
  }

  /** Whether an instance of `accountId` could be given a slot now (the endpoint aside: see
   * `endpointFree`). The delivery loop leaves out the due instances that could not, so that a turn
   * costs little while an account is at its share. */
  accountFree(accountId: string): boolean {
    return !this.full && (this.byAccount.get(accountId) ?? 0) < this.shares.perAccount;
  }

  /** Whether a request to `endpoint` could be given a slot now. */
  endpointFree(endpoint: string): boolean {
    return (this.byEndpoint.get(endpoint) ?? 0) < this.shares.perEndpoint;
  }

  /** The due instances to start now, in the order they were given slots, each holding one. */
  choose(due: Iterable<DueInstance>): DueInstance[] {
    const accounts = new Map<string, DueInstance[]>();
    for (const candidate of due) {
      const queue = accounts.get(candidate.accountId);
      if (queue) queue.push(candidate);
      else accounts.set(candidate.accountId, [candidate]);
    }
    for (const queue of accounts.values()) if (queue.length > 1) this.longestAgoFirst(queue);
    const chosen: DueInstance[] = [];
    while (!this.full && accounts.size > 0) {
      const accountId = this.neediestAccount(accounts);
      if (accountId === undefined) break;
      const queue = accounts.get(accountId)!;
      const at = queue.findIndex((c) => (this.byEndpoint.get(c.endpoint) ?? 0) < this.shares.perEndpoint);
      if (at < 0) {
        // Every due instance of the account waits for a busy endpoint.
        accounts.delete(accountId);
        continue;
      }
      const [candidate] = queue.splice(at, 1);
      if (queue.length === 0) accounts.delete(accountId);
      this.take(candidate);
      chosen.push(candidate);
    }
    return chosen;
  }

  /** The attempt given a slot by `choose` ended, whatever its outcome. */
  finished(candidate: DueInstance): void {
    this.inFlightTotal -= 1;
    decrement(this.byAccount, candidate.accountId);
    decrement(this.byEndpoint, candidate.endpoint);
  }

  /** The account under its share with the fewest requests in flight, served longest ago on a tie. */
  private neediestAccount(accounts: Map<string, DueInstance[]>): string | undefined {
    let best: string | undefined;
    let bestLoad = Infinity;
    let bestServed = Infinity;
    for (const accountId of [...accounts.keys()]) {
      const load = this.byAccount.get(accountId) ?? 0;
      if (load >= this.shares.perAccount) {
        accounts.delete(accountId);
        continue;
      }
      const served = this.accountServed.get(accountId) ?? 0;
      if (load < bestLoad || (load === bestLoad && served < bestServed)) {
        best = accountId;
        bestLoad = load;
        bestServed = served;
      }
    }
    return best;
  }

  /** Sorts an account's due instances by when each was last served, longest ago first (in the order
   * given on a tie), looking each up once rather than at every comparison: this runs every turn. */
  private longestAgoFirst(queue: DueInstance[]): void {
    const served = queue.map((c) => this.instanceServed.get(c.instanceId) ?? 0);
    const order = queue.map((_, i) => i).sort((i, j) => served[i] - served[j]);
    const sorted = order.map((i) => queue[i]);
    for (let i = 0; i < sorted.length; i++) queue[i] = sorted[i];
  }

  private take(candidate: DueInstance): void {
    this.inFlightTotal += 1;
    this.byAccount.set(candidate.accountId, (this.byAccount.get(candidate.accountId) ?? 0) + 1);
    this.byEndpoint.set(candidate.endpoint, (this.byEndpoint.get(candidate.endpoint) ?? 0) + 1);
    this.served += 1;
    this.accountServed.set(candidate.accountId, this.served);
    this.instanceServed.set(candidate.instanceId, this.served);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
