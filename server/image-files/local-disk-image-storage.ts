import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageFormat } from '../core/image-types.js';
import { newImageFileName, parseImageFileName } from './image-file-name.js';
import type { ImageStorage, StoredImage } from './image-storage.js';

/**
 * Images as files in one directory (`<GATEWAY_DATA_DIR>/images`). Only names that parse as the gateway's
 * own are ever joined to the directory, so a request cannot reach another file. Writes go to a temporary
 * name first, so a reader never sees half an image.
 */
export class LocalDiskImageStorage implements ImageStorage {
  private ready: Promise<unknown> | undefined;

  constructor(readonly directory: string) {}

  async save(bytes: Buffer, format: ImageFormat, expiresAt: number): Promise<string> {
    await (this.ready ??= mkdir(this.directory, { recursive: true }));
    const name = newImageFileName(format, expiresAt);
    const partial = join(this.directory, `.${name}.partial`);
    await writeFile(partial, bytes);
    await rename(partial, join(this.directory, name));
    return name;
  }

  async open(name: string, now = Date.now()): Promise<StoredImage | undefined> {
    const parsed = parseImageFileName(name);
    if (!parsed) return undefined;
    const path = join(this.directory, name);
    if (parsed.expiresAt <= now) {
      await rm(path, { force: true });
      return undefined;
    }
    // Open first, then stat the open file: the sweeper may delete the name at any moment, but not the
    // descriptor this request holds.
    const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return undefined;
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), bytes: size, format: parsed.format, expiresAt: parsed.expiresAt };
  }

  async deleteExpired(now = Date.now()): Promise<number> {
    const names = await readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const expired = names.filter((name) => {
      const parsed = parseImageFileName(name);
      return parsed !== undefined && parsed.expiresAt <= now;
    });
    await Promise.all(expired.map((name) => rm(join(this.directory, name), { force: true })));
    return expired.length;
  }
}
