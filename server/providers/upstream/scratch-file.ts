import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
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

/** Names {@link withScratchFile} gives its files. */
const scratchName = /^[0-9a-f]{24}\.tmp$/;

/**
 * Removes the scratch files under `directory` untouched since `before`: what a process killed while writing or
 * sending one left behind. A file in use is written and then read at once (a send in progress holds it open,
 * so even a removal would not cut it short), so only leftovers are that old. Resolves with how many went.
 */
export async function removeScratchLeftovers(directory: string, before: number): Promise<number> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let removed = 0;
  for (const name of names.filter((each) => scratchName.test(each))) {
    const path = join(directory, name);
    const modified = await stat(path).then((stats) => stats.mtimeMs, () => undefined);
    if (modified === undefined || modified >= before) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}
