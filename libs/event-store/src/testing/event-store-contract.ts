import { appendContract } from './contract/append.contract';
import { chainContract } from './contract/chain.contract';
import { concurrencyContract } from './contract/concurrency.contract';
import { deleteContract } from './contract/delete.contract';
import type { ContractContext, EventStoreContractHarness } from './contract/contract-fixture';
import { durabilityContract } from './contract/durability.contract';
import { globalLogContract } from './contract/global-log.contract';
import { requiredStreamContract } from './contract/required-stream.contract';
import { streamNamesContract } from './contract/stream-names.contract';
import { subscriptionContract } from './contract/subscription.contract';

export { collect, type EventStoreContractHarness, type StoreFixture } from './contract/contract-fixture';

/**
 * The behaviour every adapter of the event-store port must have. Call it inside a Jest file with a
 * harness for the adapter under test; each test gets a fresh fixture.
 */
export function eventStoreContractSuite(harness: EventStoreContractHarness): void {
  describe(`event store contract: ${harness.name}`, () => {
    const context = { harness } as ContractContext;

    beforeEach(async () => {
      context.fixture = await harness.create();
      context.store = context.fixture.store;
    });
    afterEach(async () => {
      await context.fixture.cleanup();
    });

    appendContract(context);
    concurrencyContract(context);
    requiredStreamContract(context);
    globalLogContract(context);
    // The SIGKILL cases are not part of the contract of a store that claims no durability (in
    // memory), so they are not defined for it (not skipped: they do not exist there).
    if (harness.durable !== false) durabilityContract(context);
    subscriptionContract(context);
    deleteContract(context);
    chainContract(context);
    // Optional on the port: defined for the stores that list streams by name.
    if (harness.listsStreams !== false) streamNamesContract(context);
  });
}
