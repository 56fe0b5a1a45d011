// Summarises V8 CPU profiles written by `npm run bench -- --profile` (bench/profiles/<label>/):
//   node dist/tools/bench/src/profile-summary.js bench/profiles/b-api/*.cpuprofile
// prints where the self time goes, by function and by package or workspace project.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `better-sqlite3`, `libs/projections`, `node:internal/...`, or `(garbage collector)` and the like. */
function owner(url: string, name: string): string {
  if (!url) return `(${name.replace(/[()]/g, '') || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const project = /dist\/((?:apps|libs|tools)\/(?:domain\/)?[^/]+)/.exec(url);
  if (project) return project[1];
  return url.startsWith('node:') ? url.split('/').slice(0, 2).join('/') : url;
}

function top(map: Map<string, number>, total: number, n: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([key, us]) =>
        `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`,
    );
}

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const name = (id: number) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    return `${functionName || '(anonymous)'} ${where}`.trim();
  };
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfTime) {
    const { functionName, url } = nodes.get(id)!.callFrame;
    byFunction.set(name(id), (byFunction.get(name(id)) ?? 0) + us);
    byOwner.set(owner(url, functionName), (byOwner.get(owner(url, functionName)) ?? 0) + us);
    // Total time: each function on the stack once, however deep it recurses.
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) onStack.add(name(at));
    for (const fn of onStack) inclusive.set(fn, (inclusive.get(fn) ?? 0) + us);
    total += us;
  }
  process.stdout.write(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled\n-- by package or project (self time)\n`);
  process.stdout.write(
    `${top(byOwner, total, 15).join('\n')}\n-- by function (self time)\n${top(byFunction, total, 25).join('\n')}\n`,
  );
  const workspace = new Map([...inclusive].filter(([fn]) => / dist\/(apps|libs)\//.test(` ${fn}`)));
  process.stdout.write(
    `-- workspace functions (total time, callees included)\n${top(workspace, total, 25).join('\n')}\n`,
  );
}
