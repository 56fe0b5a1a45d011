import { withEventSchemas } from '@gw/application';
import type { AppConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';
import { NoReadModelsError } from '@gw/projections';
import { checkChains, type ChainReport } from './verify-chain';
import { compareReadModels, type ReadModelReport } from './verify-read-models';
import type { RowDifference } from './verify-diff';

/**
 * `ops audit verify` (docs/api.md 9.2): checks every stream's hash chain up to the head as it was
 * when the command started, and compares the live read models with a rebuild from the log. Prints
 * one JSON line (and, when something does not hold, a line per finding on stderr); resolves true when
 * everything holds. Nothing printed carries a secret, hash or sealed value.
 */
export async function auditVerify(config: AppConfig): Promise<boolean> {
  const stored = openEventStore(config.store.eventStore, { lockTimeoutMs: config.store.lockTimeoutMs });
  try {
    return await verify(config, stored);
  } finally {
    await stored.close();
  }
}

/** The chain is checked over the events as stored; the read models are rebuilt from them as the API
 * reads them, in their current shape (older schema versions upcast). */
async function verify(config: AppConfig, stored: EventStore): Promise<boolean> {
  const head = await stored.headPosition();
  const chains = await checkChains(stored, head);
  const store = withEventSchemas(stored);
  let models: ReadModelReport | undefined;
  let unbuilt: string | undefined;
  try {
    models = await compareReadModels(store, config.store.readModelFile, head, config.store.readModelWaitMs);
  } catch (error) {
    // Reported rather than thrown, so that the chain's findings are printed too: an event altered
    // into invalid JSON, say, breaks its chain and can make its projection fail.
    unbuilt =
      error instanceof NoReadModelsError
        ? `${error.message}: the API has not built its read models in this DATA_DIR`
        : `the read models could not be rebuilt from the log: ${error instanceof Error ? error.message : String(error)}`;
  }
  const verified = chains.broken === 0 && models !== undefined && models.differences === 0;
  process.stdout.write(`${JSON.stringify(summary(verified, head, chains, models, unbuilt))}\n`);
  if (chains.firstBreak) {
    const { stream, revision, reason } = chains.firstBreak;
    process.stderr.write(`error: stream ${stream} is broken at revision ${revision}: ${reason}\n`);
  }
  if (unbuilt) process.stderr.write(`error: ${unbuilt}\n`);
  if (models?.firstDifference) {
    process.stderr.write(
      `error: read model ${models.firstDifference.readModel} differs from the log at position ${models.position}: ${describe(models.firstDifference)}\n`,
    );
  }
  return verified;
}

function summary(
  verified: boolean,
  head: bigint,
  chains: ChainReport,
  models: ReadModelReport | undefined,
  unbuilt: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    verified,
    events: chains.events,
    streams: chains.streams,
    readModels: models?.readModels ?? [],
    position: head.toString(),
  };
  if (models) out['readModelsPosition'] = models.position.toString();
  if (unbuilt) out['readModelsError'] = unbuilt;
  if (chains.firstBreak) {
    const { stream, revision, position, reason } = chains.firstBreak;
    out['brokenEvents'] = chains.broken;
    out['firstBroken'] = { stream, revision: revision.toString(), position: position.toString(), reason };
  }
  if (models?.firstDifference) {
    out['readModelDifferences'] = models.differences;
    out['firstDifference'] = models.firstDifference;
  }
  return out;
}

function describe(difference: RowDifference): string {
  const key = Object.entries(difference.key)
    .map(([column, value]) => `${column} ${value}`)
    .join(', ');
  const values =
    difference.live === undefined
      ? '(values not shown)'
      : `live ${JSON.stringify(difference.live)}, rebuilt ${JSON.stringify(difference.rebuilt)}`;
  return `${difference.table} row ${key}, field ${difference.field}: ${values}`;
}
