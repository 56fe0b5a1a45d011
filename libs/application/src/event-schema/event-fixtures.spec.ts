import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from '@gw/event-store';
import { REAL_STORES, type RealStore } from './__fixtures__/real-stores';
import { SAMPLES, type DataOf } from './stored-event-samples';
import { EVENT_SCHEMAS, type StoredEventType } from './event-schemas';
import { shapeDifferences, shapeOf } from './stored-shape';
import { withEventSchemas } from './versioned-event-store';

/**
 * The committed fixtures: the stored form of every event type at every version it has had
 * (`__fixtures__/<Type>.v<N>.json`). Each is read through the current code, and the current version's
 * fixture is compared with the typed sample, so that an event type's shape cannot change without a
 * new version, its upcaster and its fixture.
 *
 * `npm run events:fixtures` runs this spec with EVENT_FIXTURES=write: it first writes the current
 * version's fixture of every type that has none (`--force`, EVENT_FIXTURES=force: rewrites those
 * that differ from the sample, for shapes changed before any store kept them).
 */
const DIR = join(__dirname, '__fixtures__');
const MODE = process.env['EVENT_FIXTURES'];
const FIX = 'run `npm run events:fixtures` (README, "Event versions")';

interface StoredForm {
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** Top-level fields that data of an older version may lack: optional in the current type (the
 * compiler checks that they are). */
const OPTIONAL: { readonly [T in StoredEventType]?: ReadonlyArray<OptionalKeys<DataOf<T>>> } = {
  NotificationCreated: ['noticeKey'],
  NotificationRedelivered: ['createdRevision'],
};

/** Nested fields that data of an older version may lack: a body's `label` came with version 3. */
const NESTED_OPTIONAL: { readonly [T in StoredEventType]?: readonly string[] } = {
  NotificationCreated: ['body.label'],
  NotificationRedelivered: ['body.label'],
};

const fileOf = (type: string, version: number) => `${type}.v${version}.json`;
const sampleOf = (type: string) => (SAMPLES as Record<string, unknown>)[type];

function readFixture(file: string): StoredForm {
  return JSON.parse(readFileSync(join(DIR, file), 'utf8')) as StoredForm;
}

/** What `npm run events:fixtures` does, before the checks run. */
function writeCurrentFixtures(force: boolean): void {
  for (const [type, { version }] of EVENT_SCHEMAS) {
    const file = fileOf(type, version);
    const text = `${JSON.stringify({ type, data: sampleOf(type), metadata: { schemaVersion: version } }, null, 2)}\n`;
    const exists = existsSync(join(DIR, file));
    if (exists && (!force || readFileSync(join(DIR, file), 'utf8') === text)) continue;
    writeFileSync(join(DIR, file), text);
    process.stdout.write(`${exists ? 'rewrote' : 'wrote'} ${join(DIR, file)}\n`);
  }
}

if (MODE === 'write' || MODE === 'force') writeCurrentFixtures(MODE === 'force');

/** Every fixture file, by type and version. */
const FIXTURES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((file) => {
    const match = /^(\w+)\.v(\d+)\.json$/.exec(file);
    return { file, type: match?.[1] ?? '', version: Number(match?.[2] ?? 0) };
  });

/** Why `event` is not a valid event of its type's current version, or [] when it is. */
function problemsOf(event: StoredForm, fromVersion: number): string[] {
  const schema = EVENT_SCHEMAS.get(event.type);
  if (!schema) return [`${event.type} is not registered`];
  const problems: string[] = [];
  if (event.metadata['schemaVersion'] !== schema.version)
    problems.push(`read as version ${String(event.metadata['schemaVersion'])}, not ${schema.version}`);
  const optional =
    fromVersion < schema.version
      ? [
          ...(OPTIONAL[event.type as StoredEventType] ?? []),
          ...(NESTED_OPTIONAL[event.type as StoredEventType] ?? []),
        ].map((key) => `data.${key}`)
      : [];
  problems.push(...shapeDifferences(shapeOf(sampleOf(event.type)), shapeOf(event.data), 'data', { optional }));
  return problems;
}

describe('stored event fixtures', () => {
  it('exist for every registered type at every version, and for nothing else', () => {
    const expected = [...EVENT_SCHEMAS].flatMap(([type, { version }]) =>
      Array.from({ length: version }, (_, i) => fileOf(type, i + 1)),
    );
    const present = FIXTURES.map((f) => f.file);
    expect({
      missing: expected.filter((f) => !present.includes(f)),
      unexpected: present.filter((f) => !expected.includes(f)),
      fix: FIX,
    }).toEqual({
      missing: [],
      unexpected: [],
      fix: FIX,
    });
  });

  it.each([...EVENT_SCHEMAS.keys()])('%s: the current version’s fixture has the shape of the current type', (type) => {
    const { version } = EVENT_SCHEMAS.get(type)!;
    const file = fileOf(type, version);
    if (!existsSync(join(DIR, file))) throw new Error(`no fixture ${file}: ${FIX}`);
    const fixture = readFixture(file);
    expect({ type: fixture.type, schemaVersion: fixture.metadata['schemaVersion'] }).toEqual({
      type,
      schemaVersion: version,
    });
    const differences = shapeDifferences(shapeOf(fixture.data), shapeOf(sampleOf(type)), 'data', {
      expectedName: file,
    });
    if (differences.length > 0) {
      throw new Error(
        `The shape of ${type} is not that of its version ${version} (${file}):\n  ${differences.join('\n  ')}\n` +
          `Stored events of version ${version} keep their shape: give ${type} version ${version + 1} and an upcaster from ${version} in ` +
          `libs/application/src/event-schema/event-schemas.ts, then ${FIX}. (Only while no store has kept the new shape: --force rewrites ${file}.)`,
      );
    }
  });

  describe.each(REAL_STORES)('read through the versioned store on %s', (_name, open) => {
    let real: RealStore;
    let store: EventStore;
    const run = randomUUID().slice(0, 8);
    const streamOf = (file: string) => `fixture-${run}-${file.replace(/\.json$/, '').replace('.', '-')}`;
    beforeAll(async () => {
      real = await open();
      store = withEventSchemas(real.raw);
      // Stored as they are: appended to the unwrapped store, not stamped.
      for (const { file } of FIXTURES) {
        const { type, data, metadata } = readFixture(file);
        await real.raw.append(streamOf(file), [{ id: randomUUID(), type, data, metadata }], 'no_stream');
      }
    });
    afterAll(() => real.stop());

    it('reads every fixture as a valid event of its type’s current version', async () => {
      const problems: Record<string, string[]> = {};
      for (const { file, version } of FIXTURES) {
        const events = await store.readStream(streamOf(file));
        const found = events.length === 1 ? problemsOf(events[0], version) : [`${events.length} events read`];
        if (found.length > 0) problems[file] = found;
      }
      expect(problems).toEqual({});
    });

    it('gives the same events through readAll and a subscription as through readStream', async () => {
      const prefix = `fixture-${run}-`;
      const byStream = await Promise.all(FIXTURES.map(({ file }) => store.readStream(streamOf(file))));
      const fromLog = await store.readAll({ filter: { streamNamePrefixes: [prefix] } });
      const subscribed = [];
      for await (const message of store.subscribeToAll({ filter: { streamNamePrefixes: [prefix] } })) {
        if (message.kind === 'event') subscribed.push(message.event);
        if (message.kind === 'caughtUp') break;
      }
      const view = (
        events: Array<{ streamName: string; type: string; data: unknown; metadata: Record<string, unknown> }>,
      ) =>
        events
          .map(({ streamName, type, data, metadata }) => ({
            streamName,
            type,
            data,
            schemaVersion: metadata['schemaVersion'],
          }))
          .sort((a, b) => a.streamName.localeCompare(b.streamName));
      expect(view(fromLog)).toEqual(view(byStream.flat()));
      expect(view(subscribed)).toEqual(view(byStream.flat()));
    });
  });
});
