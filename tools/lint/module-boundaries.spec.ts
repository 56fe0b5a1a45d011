import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { lintFixture as lint, lintFixtures } from './support/lint-fixture';

const root = resolve(__dirname, '../..');

describe('layering is enforced by lint', () => {
  beforeAll(() => {
    // The boundary rule reads Nx's cached project graph; without one it would silently skip.
    const graph = spawnSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    if (graph.status !== 0) throw new Error(`nx could not compute the project graph: ${graph.stderr}`);
    // Every fixture below in one ESLint run (a test's `lint` then reads its report).
    lintFixtures([
      'apps/api/src/__fixtures__/store-adapter-in-app.fixture.ts',
      'apps/api/src/__fixtures__/store-client-in-app.fixture.ts',
      'apps/dashboard/src/__fixtures__/browser-storage.fixture.ts',
      'apps/notifier/src/engine/__fixtures__/clock-in-engine.fixture.ts',
      'libs/domain/instances/src/__fixtures__/impure-domain.fixture.ts',
      'libs/event-store/src/__fixtures__/adapter-in-port.fixture.ts',
      'libs/event-store/src/open/__fixtures__/eager-esdb.fixture.ts',
      'libs/projections/src/__fixtures__/storage-in-read-model.fixture.ts',
    ]);
  }, 120_000);

  const domainFixture = 'libs/domain/instances/src/__fixtures__/impure-domain.fixture.ts';

  it('refuses a framework, a store client and Node I/O in a domain lib', () => {
    const messages = lint(domainFixture);
    const refusedLines = new Set(
      messages
        .filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === 'no-restricted-imports')
        .map((m) => m.line),
    );
    // Lines 3-8 import @nestjs/common, @eventstore/db-client, better-sqlite3, node:fs, crypto and node:sqlite.
    expect([...refusedLines].sort()).toEqual([3, 4, 5, 6, 7, 8]);
    expect(
      messages.some((m) => m.ruleId === '@nx/enforce-module-boundaries' && m.message.includes('@nestjs/common')),
    ).toBe(true);
  });

  it('refuses the environment, the network and timers as globals in a domain lib', () => {
    const globals = lint(domainFixture).filter((m) => m.ruleId === 'no-restricted-globals');
    expect(globals.map((m) => m.message.split("'")[1]).sort()).toEqual(['fetch', 'performance', 'process']);
  });

  it('refuses the clock and randomness in a domain lib', () => {
    const purity = lint(domainFixture).filter((m) => m.ruleId === 'no-restricted-syntax');
    expect(purity.map((m) => m.message)).toEqual(
      expect.arrayContaining(['The domain takes `now` from the command.', 'Randomness comes in through the command.']),
    );
  });

  it('refuses a store client imported by an app instead of going through the port', () => {
    const messages = lint('apps/api/src/__fixtures__/store-client-in-app.fixture.ts');
    expect(messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.line)).toEqual([3]);
  });

  const restrictedLines = (file: string, rule: string) =>
    lint(file)
      .filter((m) => m.ruleId === rule)
      .map((m) => m.line);

  it('refuses an event-store adapter chosen anywhere in an app but its main.ts, and lets the port through', () => {
    expect(
      restrictedLines(
        'apps/api/src/__fixtures__/store-adapter-in-app.fixture.ts',
        '@typescript-eslint/no-restricted-imports',
      ),
    ).toEqual([6, 7, 8, 9]);
  });

  it('keeps store clients and adapters out of the event-store port, so that importing it loads neither', () => {
    expect(
      restrictedLines('libs/event-store/src/__fixtures__/adapter-in-port.fixture.ts', 'no-restricted-imports'),
    ).toEqual([6, 7, 8, 9, 10]);
  });

  it('keeps the machine clock and randomness out of the notifier engine: they come from its Clock and settings', () => {
    const messages = lint('apps/notifier/src/engine/__fixtures__/clock-in-engine.fixture.ts').filter(
      (m) => m.ruleId === 'no-restricted-syntax',
    );
    // Lines 3-5: new Date(), Date.now(), Math.random(); line 6 parses a given time and is fine.
    expect(messages.map((m) => m.line)).toEqual([3, 4, 5]);
  });

  it('refuses an eager import of the EventStoreDB adapter in open, and lets its type through', () => {
    expect(
      restrictedLines(
        'libs/event-store/src/open/__fixtures__/eager-esdb.fixture.ts',
        '@typescript-eslint/no-restricted-imports',
      ),
    ).toEqual([5]);
  });

  it('keeps the dashboard off browser storage and cookies, as globals or as members', () => {
    const file = 'apps/dashboard/src/__fixtures__/browser-storage.fixture.ts';
    expect(restrictedLines(file, 'no-restricted-syntax')).toEqual([5, 6, 7, 8, 9, 10]);
    expect(restrictedLines(file, 'no-restricted-globals')).toEqual([11]);
  });

  it('keeps storage out of the read models and their queries, outside their SQLite implementation', () => {
    const messages = lint('libs/projections/src/__fixtures__/storage-in-read-model.fixture.ts');
    expect(messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.line)).toEqual([5, 6]);
  });
});
