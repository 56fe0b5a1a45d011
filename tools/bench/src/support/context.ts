/** How big and how long each scenario is; `--quick` keeps CI's smoke run to seconds per scenario. */
export interface Sizes {
  /** Measured seconds of each HTTP load run (a, b, c), after a warm-up. */
  httpSeconds: number;
  warmUpSeconds: number;
  connections: number;
  /** Scenario d: instances, and notifications per instance, of the throughput run. */
  notifierInstances: number;
  notificationsPerInstance: number;
  notifierConcurrency: number;
  /** Scenario d: offered rate and seconds of the latency run. */
  latencyRate: number;
  latencySeconds: number;
  /** Scenario i: offered rates (messages/s through the ingest host) and seconds at each. */
  capacityRates: number[];
  capacitySeconds: number;
  /** Scenario i: seconds at the first rate right after the apps start, reported on their own (cold),
   * before the measured rates. */
  capacityColdSeconds: number;
  /** Scenario e: events in the replayed log. */
  replayEvents: number;
  /** Scenario f: instances in the read models. */
  memoryInstances: number;
  /** Scenario j: instances of the one account whose listInstances pages are walked. */
  pagingInstances: number;
}

export const FULL: Sizes = {
  httpSeconds: 10,
  warmUpSeconds: 2,
  connections: 64,
  notifierInstances: 200,
  notificationsPerInstance: 100,
  notifierConcurrency: 64,
  latencyRate: 500,
  latencySeconds: 20,
  capacityRates: [1000, 2000, 4000],
  capacitySeconds: 20,
  capacityColdSeconds: 20,
  replayEvents: 1_000_000,
  memoryInstances: 100_000,
  pagingInstances: 100_000,
};

export const QUICK: Sizes = {
  httpSeconds: 2,
  warmUpSeconds: 0.5,
  connections: 64,
  notifierInstances: 50,
  notificationsPerInstance: 40,
  notifierConcurrency: 64,
  latencyRate: 500,
  latencySeconds: 2,
  capacityRates: [250, 500],
  capacitySeconds: 2,
  capacityColdSeconds: 1,
  replayEvents: 100_000,
  memoryInstances: 10_000,
  pagingInstances: 5_000,
};

export interface BenchContext {
  quick: boolean;
  sizes: Sizes;
  /** Write CPU profiles of the app processes into bench/profiles/. */
  profile: boolean;
  log(message: string): void;
}
