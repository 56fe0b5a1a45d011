import { fstatSync, writeSync } from 'node:fs';

/** Where a logger's lines go; each line ends with a newline. */
export type LineWriter = (line: string) => void;

/**
 * Writes whole lines through `writeBytes` (which writes a prefix of what it is given and says how
 * many bytes, or throws) and never throws itself: a line that cannot be written, say because the
 * disk is full, is dropped and counted, and the next line that can be written is preceded by a
 * notice saying how many were lost. A line cut short by the failure is ended first, so that every
 * complete line stays one JSON record.
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
    dropped += 1;
    since ||= now().toISOString();
    cause ||= failure;
    if (offset > 0) cutShort = bytes[offset - 1] !== 0x0a;
  };
}

let standardOutput: LineWriter | undefined;

/**
 * The process's standard output, shared by every logger of the process. When it is a file
 * (`npm start > gateway.log`), lines are written with writeSync through droppingLineWriter: through
 * Node's stream, a failed write (a full disk) becomes an 'error' event that nobody can handle, and
 * the process exits. Pipes and terminals keep Node's stream, which waits rather than fails.
 */
export function stdoutLineWriter(): LineWriter {
  standardOutput ??= isRegularFile(1)
    ? droppingLineWriter((bytes) => writeSync(1, bytes))
    : (line) => process.stdout.write(line);
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
