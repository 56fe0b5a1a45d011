/**
 * The operator CLI's stdout: results only, one JSON line each (docs/api.md section 7), so that a
 * script can pipe it into `jq`. A reader may close the pipe before the CLI is done (`| head -1`, a
 * `jq` that stopped at a parse error): then the write fails with EPIPE, which unhandled would crash
 * the CLI halfway through its work. Here the failure is recorded instead, and each command decides
 * what a lost result means (a lost API key must be said on stderr; a listing just stops).
 */
export class Output {
  private closed = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {
    // Node also emits the failed write as an 'error' event; without a listener it would be thrown.
    stream.on('error', () => {
      this.closed = true;
    });
  }

  /** True once a write has failed: nothing more reaches the reader. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes one line; resolves false when it could not be delivered. */
  line(text: string): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.stream.write(`${text}\n`, (error) => {
        if (error) this.closed = true;
        resolve(!error);
      });
    });
  }

  /** Writes `value` as one JSON line (bigints as strings); resolves false when it was not delivered. */
  json(value: unknown): Promise<boolean> {
    return this.line(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  }
}
