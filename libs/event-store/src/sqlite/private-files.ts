import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes `file`'s folder (0700, when this creates it) and the file itself (0600) private to this
 * user before SQLite opens it: the store holds message bodies and phone numbers (docs/api.md section 5).
 * SQLite gives the `-wal` and `-shm` files it creates the database file's mode; ones left wider by
 * an older version are narrowed here too.
 */
export function preparePrivateDatabaseFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, 'a', 0o600);
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
  for (const companion of [`${file}-wal`, `${file}-shm`]) {
    if (existsSync(companion)) chmodSync(companion, 0o600);
  }
}
