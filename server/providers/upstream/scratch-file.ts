import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes `pieces` to a new file under `directory`, as they come and with the disk's backpressure (so at most a
 * piece or two in memory), then resolves with what `use` makes of the file's path. The file is removed once
 * `use` has settled, and when writing fails or is aborted half-way: nothing outlives the call on disk (but a
 * process killed meanwhile). For bodies too large to hold (a forwarded batch's requests), sent streamed.
 *
 * @example
 * const id = await withScratchFile(directory, jsonLines(), signal, async (path) => upload(await openAsBlob(path)));
 */
export async function withScratchFile<T>(directory: string, pieces: AsyncIterable<string>, signal: AbortSignal, use: (path: string) => Promise<T>): Promise<T> {
  await mkdir(directory, { recursive: true });
  const path = join(directory, `${randomBytes(12).toString('hex')}.tmp`);
  try {
    // One piece read ahead, not Readable.from's default of 16 (16 pages of lines, when the disk is the slower).
    await pipeline(Readable.from(pieces, { highWaterMark: 1 }), createWriteStream(path, { flags: 'wx', mode: 0o600 }), { signal });
    return await use(path);
  } finally {
    await rm(path, { force: true });
  }
}
