/**
 * Whether another connection (the other app's process, an operator's CLI) has been writing to the
 * store file lately. `PRAGMA data_version` moves whenever another connection commits, never for
 * this connection's own commits, so a look before each of this connection's commits tells.
 */
export class OtherWriters {
  private version?: number;
  private seenAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly dataVersion: () => number,
    /** How long one commit seen keeps the others counted as writing. */
    private readonly windowMs = 1000,
  ) {}

  /** Looks at the data version; called before each of this connection's commits. */
  look(): void {
    const version = this.dataVersion();
    if (this.version !== undefined && version !== this.version) this.seenAt = performance.now();
    this.version = version;
  }

  get writing(): boolean {
    return performance.now() - this.seenAt < this.windowMs;
  }
}
