export class RedeliverCommand {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly from: number,
    /** null: up to the instance's last notification. */
    readonly to: number | null,
  ) {}
}

/** docs/api.md 8.8: how many notifications were queued again. */
export interface RedeliverResult {
  queued: number;
}
