import { EventStoreUnavailableError } from '../event-store.errors';

/** SQLite result codes that mean "the store cannot serve right now", not "your request is wrong". */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|NOLFS|CORRUPT|NOTADB)/;

export function isBusy(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown })?.code === 'string' &&
    /^SQLITE_(BUSY|LOCKED)/.test((error as { code: string }).code)
  );
}

/** Maps a better-sqlite3 error to the port's outage error, or returns it unchanged. */
export function translateSqliteError(error: unknown): unknown {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && UNAVAILABLE.test(code)) {
    return new EventStoreUnavailableError(`embedded store unavailable (${code})`, { cause: error });
  }
  if (error instanceof TypeError && /database connection is not open/.test(error.message)) {
    return new EventStoreUnavailableError('embedded store is closed', { cause: error });
  }
  return error;
}
