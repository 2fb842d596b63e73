/**
 * Reading a file a user names (a configuration, an `envFile`, a token file, a turn's JSON):
 * regular files only, and capped while reading. A named pipe, a device or a socket is refused
 * before it is opened for reading (a FIFO blocks its reader until a writer comes, holding the
 * process open; `/dev/zero` never ends), and the file opened is checked again (opened without
 * blocking), so one swapped in between is refused too. Reading stops as soon as the cap is
 * passed: a 512 MiB file costs at most the cap in memory, not 512 MiB.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/** Why a file was refused: not a regular file, or larger than the cap. */
export class FileRefusal extends Error {
  constructor(
    message: string,
    /** `'special'`: not a regular file; `'too-large'`: over the cap. */
    readonly reason: 'special' | 'too-large',
  ) {
    super(message);
    this.name = 'FileRefusal';
  }
}

/** What a file that is not a regular one is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a file';
}

function refuseSpecial(stats: Stats): void {
  if (!stats.isFile()) throw new FileRefusal(`not a regular file (${kindOf(stats)})`, 'special');
}

/** Reads at most this much per read call. */
const READ_BYTES = 64 * 1024;

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them. Throws a
 * {@link FileRefusal} for a file that is not a regular one (`not a regular file (a named
 * pipe)`) or is larger than `maxBytes` (`larger than N bytes`), and the file system's error for
 * a file that cannot be read (ENOENT, EACCES).
 *
 * @example
 * ```ts
 * const text = (await readRegularFile('.env', 1024 * 1024)).toString('utf8');
 * ```
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  refuseSpecial(await stat(path));
  // Non-blocking: a FIFO swapped in after the check is opened at once (and refused), not waited on.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    refuseSpecial(await handle.stat());
    const pieces: Buffer[] = [];
    let length = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(READ_BYTES, maxBytes + 1 - length));
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) return Buffer.concat(pieces, length);
      pieces.push(piece.subarray(0, bytesRead));
      length += bytesRead;
      if (length > maxBytes) throw new FileRefusal(`larger than ${maxBytes} bytes`, 'too-large');
    }
  } finally {
    await handle.close();
  }
}
