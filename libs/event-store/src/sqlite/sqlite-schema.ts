/**
 * One table holds the whole log. `position` is the global order: SQLite serialises writers, so a
 * transaction's positions become visible all at once and never behind a later one (no gaps for a
 * reader polling `position > x`).
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id    TEXT    NOT NULL UNIQUE,
  stream      TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at TEXT    NOT NULL,
  UNIQUE (stream, revision)
);
`;

export interface EventRow {
  position: bigint;
  event_id: string;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}
