// The image's HEALTHCHECK: exits 0 when every listener of the apps this container runs answers
// GET /healthz with 200, 1 otherwise. The apps are the arguments (`api`, `notifier`), or else those
// that tools/start.js was started with in this container (read from /proc; none named: both).
// Ports and bind addresses come from the same variables the apps read, with the same defaults.
const { readdirSync, readFileSync } = require('node:fs');
const http = require('node:http');

const env = process.env;
const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]']);
const near = (address) => (WILDCARD.has(address) ? '127.0.0.1' : address);
const LISTENERS = {
  api: [
    [near(env.HOST ?? '0.0.0.0'), env.ACCOUNT_PORT ?? '8080'],
    [near(env.HOST ?? '0.0.0.0'), env.API_PORT ?? '8081'],
    [near(env.INTERNAL_HOST ?? '127.0.0.1'), env.INTERNAL_PORT ?? '8082'],
  ],
  notifier: [[near(env.INTERNAL_HOST ?? '127.0.0.1'), env.NOTIFIER_PORT ?? '8083']],
};

function appsOfStartJs() {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue;
    }
    const at = argv.findIndex((arg) => arg.endsWith('tools/start.js'));
    if (at >= 0) return argv.slice(at + 1);
  }
  return [];
}

function probe(host, port) {
  return new Promise((resolve) => {
    const request = http.get({ host, port: Number(port), path: '/healthz', timeout: 3000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200 ? '' : `${host}:${port} answered ${response.statusCode}`);
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve(`${host}:${port} ${error.message}`));
  });
}

async function main() {
  let apps = process.argv.slice(2);
  if (apps.length === 0) apps = appsOfStartJs();
  if (apps.length === 0) apps = Object.keys(LISTENERS);
  const unknown = apps.filter((app) => !LISTENERS[app]);
  if (unknown.length > 0)
    throw new Error(`unknown app(s) ${unknown.join(', ')}; known: ${Object.keys(LISTENERS).join(', ')}`);
  const problems = (
    await Promise.all(apps.flatMap((app) => LISTENERS[app].map(([host, port]) => probe(host, port))))
  ).filter(Boolean);
  if (problems.length > 0) {
    process.stderr.write(`unhealthy: ${problems.join('; ')}\n`);
    process.exit(1);
  }
}

main().catch((error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`);
  process.exit(1);
});
