// `npm start`: runs the built apps (each one bundled file, tools/apps.js) as child processes and
// stops them together. A child that exits unexpectedly stops the rest,
// so a supervisor (systemd, a container runtime) sees the failure and restarts the whole service.
// The apps' JSON logs pass through to stdout untouched (for a log shipper); once every app is
// ready, the addresses a person needs (the dashboard first) go to stderr, as plain lines.
const { spawn } = require('node:child_process');
const path = require('node:path');

const { APPS, APP_NODE_ARGS } = require('./apps');

const root = path.resolve(__dirname, '..');

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(APPS);
const children = new Map();
let stopping = false;

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

/** Where a person reaches a listener bound to `address`: a wildcard address is this machine. */
const reachable = (address) =>
  !address || address === '0.0.0.0' || address === '::'
    ? 'localhost'
    : address.includes(':')
      ? `[${address}]`
      : address;

const readyPorts = {};

/** The ready lines: printed once, when every app started has logged its `ready` line with its ports. */
function announce() {
  if (names.some((name) => !readyPorts[name])) return;
  const publicHost = reachable(process.env.HOST);
  const internalHost = reachable(process.env.INTERNAL_HOST ?? '127.0.0.1');
  const lines = [];
  const api = readyPorts.api;
  if (api) {
    lines.push(
      `Dashboard: http://${publicHost}:${api.account}/`,
      `Account host: http://${publicHost}:${api.account}/ (reference: /docs)`,
      `Instance host: http://${publicHost}:${api.instance}/ (reference: /docs)`,
      `Internal ingest host: http://${internalHost}:${api.internal}/`,
    );
  }
  if (readyPorts.notifier)
    lines.push(`Notifier: http://${internalHost}:${readyPorts.notifier.notifier}/healthz and /metrics`);
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** Passes the app's log lines through to stdout and notes its ports from its `ready` line. */
function watchForReady(name, stdout) {
  let pending = '';
  stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (readyPorts[name]) return;
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"msg":"ready"')) continue;
      try {
        readyPorts[name] = JSON.parse(line).ports;
      } catch {
        continue; // a line that only mentions the word; the real one follows
      }
      announce();
      return;
    }
  });
}

for (const name of names) {
  const entry = APPS[name];
  if (!entry) {
    process.stderr.write(`unknown app "${name}"; known: ${Object.keys(APPS).join(', ')}\n`);
    process.exit(1);
  }
  const child = spawn(process.execPath, [...APP_NODE_ARGS, '--enable-source-maps', path.join(root, entry)], {
    stdio: ['inherit', 'pipe', 'inherit'],
    // `npm start` is the development entry point; deployments set NODE_ENV=production.
    env: { NODE_ENV: 'development', ...process.env },
  });
  children.set(name, child);
  watchForReady(name, child.stdout);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit(process.exitCode ?? (signal ? 1 : (code ?? 0)));
  });
}

// As the apps' own logger does: a log line that cannot be written (a closed pipe, a full disk) is
// lost, never the service.
process.stdout.on('error', () => {});

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGINT'));
