// Code sees the event-store port; each store client stays in its adapter, and which adapter runs is
// chosen where a process is put together.
import { STORE_CLIENTS, testFiles } from './packages.mjs';

// The event-store adapters' entry points, and `open`, which picks one from configuration.
const STORE_ADAPTER_ENTRIES = '^@gw/event-store/(sqlite|esdb|memory|open)$';
// An event-store lib file reaching into an adapter's folder.
const STORE_ADAPTER_FOLDERS = '^\\.{1,2}/(sqlite|esdb|memory|open)(/|$)';

/** Refuses imports in `files` (tests aside) with the core rule; the blocks that use it do not overlap. */
const refuse = (files, patterns, ignores = []) => ({
  files,
  ignores: [...testFiles, ...ignores],
  rules: { 'no-restricted-imports': ['error', { paths: [], patterns }] },
});
/** The same with typescript-eslint's rule, which adds to the domain's restrictions (and knows type-only
 * imports) rather than replacing the core rule's. */
const refuseTs = (files, patterns, ignores = []) => ({
  files,
  ignores: [...testFiles, ...ignores],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [], patterns }] },
});
const onlyInAdapter = (client, adapter) => ({
  group: [client],
  message: `Only the ${adapter} adapter (libs/event-store/src/${adapter}) imports ${client}.`,
});

export const storeAccess = [
  // Code sees the event-store port; which adapter runs is chosen where a process is put together:
  // an app's main.ts, or a tool. The read models' SQLite files borrow the embedded adapter's file
  // handling (below).
  refuseTs(
    ['apps/**/*.ts', 'libs/**/*.ts'],
    [
      {
        regex: STORE_ADAPTER_ENTRIES,
        caseSensitive: true,
        message: 'Use the port (@gw/event-store); an adapter is chosen in main.ts.',
      },
    ],
    ['apps/*/src/main.ts', 'libs/event-store/**', 'libs/projections/src/sqlite/**'],
  ),
  refuseTs(
    ['libs/projections/src/sqlite/**/*.ts'],
    [
      {
        regex: '^@gw/event-store/(esdb|memory|open)$',
        caseSensitive: true,
        message: 'The read models use the port, and only the SQLite file handling of @gw/event-store/sqlite.',
      },
    ],
  ),
  // Inside the store libs, each client stays in its adapter's folder, and the port's files import no
  // adapter, so that `@gw/event-store` loads neither client.
  refuse(
    ['libs/event-store/src/*.ts', 'libs/event-store/src/__fixtures__/*.ts'],
    [
      { group: STORE_CLIENTS, message: 'The port imports no store client; adapters do.' },
      {
        regex: STORE_ADAPTER_FOLDERS,
        caseSensitive: true,
        message: 'The port imports no adapter: each has its own entry point.',
      },
    ],
  ),
  refuse(
    ['libs/event-store/src/**/*.ts'],
    [{ group: STORE_CLIENTS, message: 'Only the sqlite and esdb adapters import a store client.' }],
    [
      'libs/event-store/src/*.ts',
      'libs/event-store/src/__fixtures__/*.ts',
      'libs/event-store/src/sqlite/**',
      'libs/event-store/src/esdb/**',
    ],
  ),
  // `open` names the EventStoreDB adapter only as a type and requires it when chosen: loading its
  // client costs every process on the embedded store about 150 ms at start.
  refuseTs(
    ['libs/event-store/src/open/**/*.ts'],
    [
      {
        regex: '/esdb(/|$)',
        caseSensitive: true,
        allowTypeImports: true,
        message: 'Require the EventStoreDB adapter lazily, when chosen.',
      },
    ],
  ),
  refuse(['libs/event-store/src/sqlite/**/*.ts'], [onlyInAdapter('@eventstore/*', 'esdb')]),
  refuse(['libs/event-store/src/esdb/**/*.ts'], [onlyInAdapter('better-sqlite3', 'sqlite')]),
  refuse(
    ['libs/projections/src/**/*.ts'],
    [
      {
        group: ['better-sqlite3'],
        message: 'Read models and their queries know no storage; the SQLite implementation lives in sqlite/.',
      },
    ],
    ['libs/projections/src/sqlite/**'],
  ),
];
