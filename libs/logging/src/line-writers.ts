import { fstatSync, writeSync } from 'node:fs';

/** Where a logger's lines go; each line ends with a newline (a writer may be given several). */
export type LineWriter = (line: string) => void;

/**
 * Writes whole lines through `writeBytes` (which writes a prefix of what it is given and says how
 * many bytes, or throws) and never throws itself: a line that cannot be written, say because the
 * disk is full, is dropped and counted, and the next line that can be written is preceded by a
 * notice saying how many were lost. A line cut short by the failure is ended first, so that every
 * complete line stays one JSON record. Given several lines at once, it counts each one not wholly
 * written.
 */
export function droppingLineWriter(
  writeBytes: (bytes: Uint8Array) => number,
  now: () => Date = () => new Date(),
): LineWriter {
  let dropped = 0;
  let since = '';
  let cause = '';
  let cutShort = false;
  return (line) => {
    const notice =
      dropped === 0
        ? ''
        : `${JSON.stringify({ time: now().toISOString(), level: 'warn', msg: 'log lines were lost: the log could not be written', dropped, since, error: cause })}\n`;
    const bytes = Buffer.from(`${cutShort ? '\n' : ''}${notice}${line}`);
    let offset = 0;
    let failure = '';
    try {
      while (offset < bytes.length && failure === '') {
        const written = writeBytes(bytes.subarray(offset));
        if (written > 0) offset += written;
        else failure = 'no progress';
      }
    } catch (error) {
      failure = (error as NodeJS.ErrnoException).code ?? String(error);
    }
    if (failure === '') {
      dropped = 0;
      since = '';
      cause = '';
      cutShort = false;
      return;
    }
    dropped += linesFrom(bytes, Math.max(offset, bytes.length - Buffer.byteLength(line)));
    since ||= now().toISOString();
    cause ||= failure;
    if (offset > 0) cutShort = bytes[offset - 1] !== 0x0a;
  };
}

/** The complete lines (newlines) in `bytes` from `start` on. */
function linesFrom(bytes: Uint8Array, start: number): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a, start); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines;
}

/** A line writer that holds lines back, and the way to have it write them at once. */
export interface TurnLineWriter {
  write: LineWriter;
  /** Writes what is held back, and from then on every line at once (the process is exiting). */
  flushFromNowOn(): void;
}

/**
 * Hands the lines of one event-loop turn to `write` together, once the turn's callbacks have run
 * (setImmediate), or at once when they pass `maxPending` characters. A write to standard output is
 * a system call, and a busy API logs a line per request: under load one call carries a whole
 * turn's requests (bench a at LOG_LEVEL=info). What is held back is written at the end of its
 * turn, or by flushFromNowOn when the process exits (stdoutLineWriter); only a process ended by a
 * signal it does not handle (SIGKILL) loses it, the records of that one turn at most.
 */
export function turnLineWriter(
  write: LineWriter,
  maxPending = 65_536,
  later: (run: () => void) => void = (run) => setImmediate(run).unref(),
): TurnLineWriter {
  let pending = '';
  let scheduled = false;
  let direct = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const lines = pending;
    pending = '';
    write(lines);
  };
  return {
    write: (line) => {
      if (direct) return write(line);
      pending += line;
      if (pending.length >= maxPending) flush();
      else if (!scheduled) {
        scheduled = true;
        later(flush);
      }
    },
    flushFromNowOn: () => {
      direct = true;
      flush();
    },
  };
}

let standardOutput: LineWriter | undefined;

/**
 * The process's standard output, shared by every logger of the process, each turn's lines written
 * together (turnLineWriter) and whatever is held back written when the process exits, by
 * `process.exit` or an uncaught error alike. When it is a file (`npm start > gateway.log`), lines
 * are written with writeSync through droppingLineWriter: through Node's stream, a failed write (a
 * full disk) becomes an 'error' event that nobody can handle, and the process exits. Pipes and
 * terminals keep Node's stream, which waits rather than fails.
 */
export function stdoutLineWriter(): LineWriter {
  if (standardOutput) return standardOutput;
  const lines = turnLineWriter(
    isRegularFile(1) ? droppingLineWriter((bytes) => writeSync(1, bytes)) : (line) => void process.stdout.write(line),
  );
  process.on('exit', lines.flushFromNowOn);
  standardOutput = lines.write;
  return standardOutput;
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch (error) {
    // No standard output at all: Node's stream copes with that.
    if ((error as NodeJS.ErrnoException).code === 'EBADF') return false;
    throw error;
  }
}
