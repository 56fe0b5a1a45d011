import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Something that must not be found on disk, and what to call it when it is. */
export interface Needle {
  what: string;
  bytes: Buffer;
}

/** Every file under `dir`, at any depth (the SQLite WAL and SHM files included). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Which needles are found in which files under `dirs`, as `what in file` lines; [] when none is. */
export function foundOnDisk(dirs: readonly string[], needles: readonly Needle[]): string[] {
  const found: string[] = [];
  for (const file of dirs.flatMap(filesUnder)) {
    const content = readFileSync(file);
    for (const { what, bytes } of needles) if (content.includes(bytes)) found.push(`${what} in ${file}`);
  }
  return found;
}

/** A text value as it could lie in a file: its UTF-8 bytes. */
export const text = (what: string, value: string): Needle => ({ what, bytes: Buffer.from(value, 'utf8') });

/** A raw key in every form a file could hold it: the bytes, base64 and hex. */
export function rawKey(what: string, key: Buffer): Needle[] {
  return [
    { what: `${what} (bytes)`, bytes: key },
    text(`${what} (base64)`, key.toString('base64')),
    text(`${what} (hex)`, key.toString('hex')),
  ];
}
