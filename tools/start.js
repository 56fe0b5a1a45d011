// `npm start`: runs the built apps as child processes and stops them together. Each app is started
// with the `@gw/*` path aliases resolved into dist/. A child that exits unexpectedly stops the rest,
// so a supervisor (systemd, a container runtime) sees the failure and restarts the whole service.
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const APPS = {
  api: 'dist/apps/api/src/main.js',
  notifier: 'dist/apps/notifier/src/main.js',
};

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(APPS);
const children = new Map();
let stopping = false;

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

for (const name of names) {
  const entry = APPS[name];
  if (!entry) {
    process.stderr.write(`unknown app "${name}"; known: ${Object.keys(APPS).join(', ')}\n`);
    process.exit(1);
  }
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', path.join(root, 'tools/runtime/paths.js'), path.join(root, entry)], {
    stdio: 'inherit',
    // `npm start` is the development entry point; deployments set NODE_ENV=production.
    env: { NODE_ENV: 'development', ...process.env },
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit(process.exitCode ?? (signal ? 1 : code ?? 0));
  });
}

process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('SIGINT', () => stopAll('SIGINT'));
