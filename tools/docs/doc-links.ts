import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository's own documentation: the README, docs/, the benchmarks' history and the tools' READMEs. */
export function documentationFiles(root: string): string[] {
  const inDir = (dir: string, keep: (name: string) => boolean) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter(keep)
          .map((name) => join(dir, name))
      : [];
  const toolReadmes = inDir('tools', () => true).flatMap((tool) =>
    existsSync(join(root, tool, 'README.md')) ? [join(tool, 'README.md')] : [],
  );
  return [
    'README.md',
    ...inDir('docs', (name) => name.endsWith('.md')),
    ...inDir('bench', (name) => name === 'README.md'),
    ...toolReadmes,
  ];
}

/** Lines outside fenced code blocks, with inline code removed. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, (code) => code.replace(/[[\]()]/g, '')));
  }
  return lines;
}

/** The anchors GitHub gives a document's headings: lowercased, punctuation dropped, spaces as `-`,
 * and `-1`, `-2`, … for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link of `file` (relative to `root`) that names a missing file or heading. */
export function brokenLinks(root: string, file: string): string[] {
  const problems: string[] = [];
  const text = readFileSync(join(root, file), 'utf8');
  for (const line of proseLines(text)) {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#', 2);
      const resolved = path === '' ? join(root, file) : join(root, dirname(file), path);
      if (relative(root, resolved).startsWith('..')) {
        problems.push(`${file}: ${target} leads outside the repository`);
      } else if (!existsSync(resolved)) {
        problems.push(`${file}: ${target} names no file`);
      } else if (
        anchor !== undefined &&
        !(resolved.endsWith('.md') && headingAnchors(readFileSync(resolved, 'utf8')).has(anchor))
      ) {
        problems.push(`${file}: ${target} names no heading`);
      }
    }
  }
  return problems;
}
