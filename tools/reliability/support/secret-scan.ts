import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A secret to look for, with a name for the report (never the secret itself). */
export interface Secret {
  kind: string;
  value: string;
}

/** The forms in which a secret could be written down in clear: as is, its random part without the
 * prefix (`gwt_`, `gwk_`, `whsec_`), percent-encoded, JSON-escaped and base64-encoded. */
function clearForms(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
  ]);
  const random = /^(?:gw[kt]_|whsec_)(.+)$/.exec(secret)?.[1];
  if (random && random.length >= 16) forms.add(random);
  return [...forms];
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Where any secret occurs in clear: in the files under each of `dirs` (SQLite files and their WAL
 * included, read as bytes) and in each named text (process output). `skipFiles` names files that
 * hold key material on purpose (secrets.key). Reports say where and which kind, never the value.
 */
export function findSecrets(
  secrets: Secret[],
  where: { dirs?: string[]; texts?: Record<string, string>; skipFiles?: string[] },
): string[] {
  const needles = secrets.flatMap((secret) => [
    ...clearForms(secret.value).map((form) => ({ kind: secret.kind, form, bytes: Buffer.from(form, 'utf8') })),
    // A signing secret's key bytes themselves, as a store that kept them unencrypted would hold them.
    ...(secret.value.startsWith('whsec_')
      ? [
          {
            kind: `${secret.kind} (raw key bytes)`,
            form: undefined,
            bytes: Buffer.from(secret.value.slice(6), 'base64'),
          },
        ]
      : []),
  ]);
  const found: string[] = [];
  for (const dir of where.dirs ?? []) {
    for (const path of filesUnder(dir)) {
      const name = relative(dir, path);
      if (where.skipFiles?.includes(name)) continue;
      const bytes = readFileSync(path);
      for (const needle of needles) if (bytes.includes(needle.bytes)) found.push(`${name}: a ${needle.kind}`);
    }
  }
  for (const [name, text] of Object.entries(where.texts ?? {})) {
    for (const needle of needles)
      if (needle.form !== undefined && text.includes(needle.form)) found.push(`${name}: a ${needle.kind}`);
  }
  return [...new Set(found)];
}
