import type { ReadModelRow, ReadModelSnapshot, ReadModelTable } from '@gw/projections';

/** A read-model row that is not as the log says. Values are given only for columns that may be
 * printed (`shown`); a hash, sealed secret, address or URL is named, never shown. */
export interface RowDifference {
  readModel: string;
  table: string;
  /** The row's key, column by column (`version` for the models' projection version). */
  key: Record<string, string>;
  /** The first column that differs, or `row` when the row is on one side only. */
  field: string;
  live?: string;
  rebuilt?: string;
}

/** What a side shows for a row it does not have. */
const MISSING = '(no such row)';
const PRESENT = '(row present)';
const NOT_SHOWN = '[not shown]';
/** A sealed value (a secret, or a personal field of a message) is never shown, whatever its column. */
const SEALED = /^(v1|pd[12])\./;
const LONGEST_SHOWN = 200;

/** Counts the rows that differ between the live read models and the rebuilt ones, and names the
 * first (tables in a fixed order, rows in key order). Both are read row by row, side by side. */
export function firstDifference(
  live: ReadModelSnapshot,
  rebuilt: ReadModelSnapshot,
): { count: number; first?: RowDifference } {
  let count = 0;
  let first: RowDifference | undefined;
  const note = (difference: RowDifference) => {
    count += 1;
    first ??= difference;
  };
  if (live.version !== rebuilt.version) {
    note({
      readModel: 'all',
      table: 'meta',
      key: { key: 'version' },
      field: 'value',
      live: String(live.version),
      rebuilt: String(rebuilt.version),
    });
  }
  for (const table of rebuilt.tables) {
    const left = live.rows(table);
    const right = rebuilt.rows(table);
    let a = left.next();
    let b = right.next();
    while (!a.done || !b.done) {
      const order = a.done ? 1 : b.done ? -1 : compareKeys(table, a.value, b.value);
      if (order < 0) {
        note({ ...where(table, a.value as ReadModelRow), field: 'row', live: PRESENT, rebuilt: MISSING });
        a = left.next();
      } else if (order > 0) {
        note({ ...where(table, b.value as ReadModelRow), field: 'row', live: MISSING, rebuilt: PRESENT });
        b = right.next();
      } else {
        const field = differingColumn(a.value as ReadModelRow, b.value as ReadModelRow);
        if (field !== undefined)
          note({ ...where(table, b.value as ReadModelRow), field, ...values(table, field, a.value, b.value) });
        a = left.next();
        b = right.next();
      }
    }
  }
  return { count, first };
}

function where(table: ReadModelTable, row: ReadModelRow): Pick<RowDifference, 'readModel' | 'table' | 'key'> {
  const key = Object.fromEntries(table.key.map((column) => [column, show(table, column, row[column]) ?? NOT_SHOWN]));
  return { readModel: table.readModel, table: table.table, key };
}

/** -1, 0 or 1 as SQLite orders the keys: integers by value, text by its UTF-8 bytes (BINARY). */
function compareKeys(table: ReadModelTable, a: ReadModelRow, b: ReadModelRow): number {
  for (const column of table.key) {
    const x = a[column];
    const y = b[column];
    const order =
      typeof x === 'bigint' && typeof y === 'bigint'
        ? x < y
          ? -1
          : x > y
            ? 1
            : 0
        : Buffer.compare(Buffer.from(String(x), 'utf8'), Buffer.from(String(y), 'utf8'));
    if (order !== 0) return order;
  }
  return 0;
}

/** The first column (in the rebuilt row's order, then any only the live row has) whose values differ. */
function differingColumn(live: ReadModelRow, rebuilt: ReadModelRow): string | undefined {
  const columns = new Set([...Object.keys(rebuilt), ...Object.keys(live)]);
  for (const column of columns) if (!sameValue(live[column], rebuilt[column])) return column;
  return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}

function values(
  table: ReadModelTable,
  column: string,
  live: ReadModelRow,
  rebuilt: ReadModelRow,
): Pick<RowDifference, 'live' | 'rebuilt'> {
  const shownLive = show(table, column, live[column]);
  const shownRebuilt = show(table, column, rebuilt[column]);
  if (shownLive === undefined || shownRebuilt === undefined) return {};
  return { live: shownLive, rebuilt: shownRebuilt };
}

/** A value as it may be printed, or undefined when it must not be. */
function show(table: ReadModelTable, column: string, value: unknown): string | undefined {
  if (!table.shown.includes(column)) return undefined;
  if (value === undefined) return '(no such column)';
  if (value === null) return 'null';
  const text = Buffer.isBuffer(value) ? undefined : String(value);
  if (text === undefined || SEALED.test(text)) return undefined;
  return text.length > LONGEST_SHOWN ? `${text.slice(0, LONGEST_SHOWN)}…` : text;
}
