/** Where a store lives, as configuration names it: an embedded file or an EventStoreDB server. */
export type EventStoreLocation = { kind: 'embedded'; file: string } | { kind: 'esdb'; connectionString: string };
