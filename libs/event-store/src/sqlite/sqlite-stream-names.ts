import type { Statements } from './sqlite-statements';

/** Stream names a listing finds in one turn of the event loop: a few milliseconds (2 to 4 on a log of
 * 1,000,000 events). */
const NAMES_PER_TURN = 500;

/**
 * The stream names that start with `prefix` (EventStore.streamNames), walking the (stream, revision)
 * index: one seek from each name to the next, however many events its stream holds, NAMES_PER_TURN
 * names to a turn of the event loop, each page read through `run` (the store's lock retry). Names
 * that start with a prefix lie together in SQLite's byte order (UTF-8), so the walk ends at the
 * first one that does not.
 */
export async function* listStreamNames(
  statements: Pick<Statements, 'streamFrom' | 'streamAfter'>,
  prefix: string,
  run: (read: () => string[]) => Promise<string[]>,
): AsyncIterable<string> {
  let after: string | undefined;
  for (;;) {
    const last = after;
    const page = await run(() => {
      const names: string[] = [];
      let name = last === undefined ? statements.streamFrom.get(prefix) : statements.streamAfter.get(last);
      while (name !== undefined && name.startsWith(prefix)) {
        names.push(name);
        if (names.length === NAMES_PER_TURN) break;
        name = statements.streamAfter.get(name);
      }
      return names;
    });
    yield* page;
    if (page.length < NAMES_PER_TURN) return;
    after = page[page.length - 1];
    await new Promise((next) => setImmediate(next));
  }
}
