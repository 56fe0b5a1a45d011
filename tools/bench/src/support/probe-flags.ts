import { spawn } from 'node:child_process';

/**
 * V8 flags the bench's own process runs with. This process is the probe of the latency scenarios
 * (it sends the load and runs the receiver), so its own pauses count as the service's latency.
 * V8's memory reducer runs full collections of a heap that grew (the records of every message sent)
 * about 8 s after allocation drops (`--gc-memory-reducer-start-delay-ms`): after a load stops, so in
 * the middle of bench i's recovery probes, where one probe held up 65 to 125 ms set "back under 50 ms
 * after the load stopped" to 8 or 13.5 s in runs whose apps never paused 40 ms (2026-12-07,
 * bench/README). Collections caused by allocation still run as they do in any Node process.
 */
export const PROBE_FLAGS = ['--no-memory-reducer'] as const;

/** The Node options to start this process again with, or undefined when it has every probe flag. */
export function relaunchOptions(execArgv: readonly string[]): string[] | undefined {
  const missing = PROBE_FLAGS.filter((flag) => !execArgv.includes(flag));
  return missing.length ? [...missing, ...execArgv] : undefined;
}

/**
 * Starts this script again under the probe flags (they can only be given on the command line: V8
 * reads them when the heap is set up, and Node refuses them in NODE_OPTIONS), passing on the
 * signals that stop it and ending as the new process does (its exit code, or the signal that ended
 * it). Returns true once relaunched (the caller must then do nothing more), false when this process
 * has the flags already. (A debugger flag such as `--inspect` is passed on too, and its port is then
 * taken by this process: debug the bench started with `--no-memory-reducer`.)
 */
export function relaunchWithProbeFlags(): boolean {
  const options = relaunchOptions(process.execArgv);
  if (!options) return false;
  const child = spawn(process.execPath, [...options, ...process.argv.slice(1)], { stdio: 'inherit' });
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`bench: could not start again with ${PROBE_FLAGS.join(' ')}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (code !== null || !signal) process.exit(code ?? 1);
    // Ended by a signal: end by it too, as a shell reports it (143 for SIGTERM, say).
    for (const s of signals) process.off(s, forward);
    process.kill(process.pid, signal);
  });
  return true;
}
