import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isFileId } from './file-id.js';
import type { FileStorage, StoredContent } from './file-storage.js';

/** A write's temporary name: `.<file ID>.<8 hex>.partial`. */
const partialName = /^\.file-[0-9a-f]{32}\.[0-9a-f]{8}\.partial$/;
/** Temporary files one call of removeLeftovers removes at most. */
const leftoversPerCall = 500;

/**
 * Files as plain files in one directory (`<GATEWAY_DATA_DIR>/files`), named by file ID. Only IDs of the
 * gateway's own form are joined to the directory, so no ID can reach another file. Writes stream to a
 * hidden temporary name and are renamed when complete.
 */
export class LocalDiskFileStorage implements FileStorage {
  private ready: Promise<unknown> | undefined;

  constructor(readonly directory: string) {}

  async write(id: string, content: Readable | AsyncIterable<Uint8Array | string>): Promise<number> {
    const path = this.pathOf(id);
    await (this.ready ??= mkdir(this.directory, { recursive: true }));
    const partial = join(this.directory, `.${id}.${randomBytes(4).toString('hex')}.partial`);
    const output = createWriteStream(partial, { flags: 'wx' });
    try {
      await pipeline(content instanceof Readable ? content : Readable.from(content), output);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return output.bytesWritten;
  }

  /** Temporary files (`.partial`) not modified since `before`: a write going on appends to its own all along. */
  async removeLeftovers(before: number): Promise<number> {
    const names = await readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    let removed = 0;
    for (const name of names) {
      if (removed === leftoversPerCall) break;
      if (!partialName.test(name)) continue;
      const path = join(this.directory, name);
      const modified = await stat(path).then((stats) => stats.mtimeMs, () => undefined);
      if (modified === undefined || modified >= before) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  async open(id: string): Promise<StoredContent | undefined> {
    if (!isFileId(id)) return undefined;
    // Open, then stat the open file: a delete may remove the name at any moment, but not this descriptor.
    const handle = await open(this.pathOf(id), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return undefined;
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), bytes: size };
  }

  async remove(id: string): Promise<void> {
    if (isFileId(id)) await rm(this.pathOf(id), { force: true });
  }

  private pathOf(id: string): string {
    if (!isFileId(id)) throw new Error(`not a file ID: ${JSON.stringify(id)}`);
    return join(this.directory, id);
  }
}
