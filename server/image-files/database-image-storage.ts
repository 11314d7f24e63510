import { Readable } from 'node:stream';
import type { ImageFormat } from '../core/image-types.js';
import type { FileStorage } from '../files/file-storage.js';
import type { GatewayDb } from '../store/database.js';
import { newImageFileName, parseImageFileName } from './image-file-name.js';
import type { ImageStorage, StoredImage } from './image-storage.js';

/** How many expired images one round of the sweep removes; the sweep goes on round after round until none are left. */
export const imageSweepBatch = 100;

/**
 * Images in the store, so that every instance on one PostgreSQL serves a URL any of them handed out. The
 * bytes go through the Files machinery (`bytes`: the chunked database storage, database-file-storage.ts)
 * under the image's name, which is never a file ID; the `image_files` row beside them holds the expiry for
 * the sweeper. The row is inserted before the bytes, so an image whose write never finished (the instance
 * died) is still found and removed once it expires.
 *
 * Reads need no row: the name carries the expiry, and the chunk store shows only whole files. An expired
 * image is a 404 at once, and deleted by the sweep, off the request path.
 *
 * @example
 * const images = new DatabaseImageStorage(db, new DatabaseFileStorage(db));
 * const name = await images.save(png, 'png', Date.now() + 3_600_000);
 */
export class DatabaseImageStorage implements ImageStorage {
  constructor(
    private readonly db: GatewayDb,
    private readonly bytes: FileStorage,
  ) {}

  async save(bytes: Buffer, format: ImageFormat, expiresAt: number): Promise<string> {
    const name = newImageFileName(format, expiresAt);
    await this.db.insertInto('image_files').values({ name, expires_at: expiresAt }).execute();
    try {
      await this.bytes.write(name, Readable.from([bytes]));
    } catch (error) {
      // The chunk store removed what it wrote; the row would only wait for the sweep.
      await this.db.deleteFrom('image_files').where('name', '=', name).execute().catch(() => undefined);
      throw error;
    }
    return name;
  }

  async open(name: string, now = Date.now()): Promise<StoredImage | undefined> {
    const parsed = parseImageFileName(name);
    if (!parsed || parsed.expiresAt <= now) return undefined;
    const content = await this.bytes.open(name);
    return content && { body: content.body, bytes: content.bytes, format: parsed.format, expiresAt: parsed.expiresAt };
  }

  /**
   * Removes every expired image, {@link imageSweepBatch} at a time (bytes first, then the rows), so no
   * statement holds many rows; several instances sweeping at once remove nothing twice that matters.
   */
  async deleteExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await this.db.selectFrom('image_files').select('name').where('expires_at', '<=', now).orderBy('expires_at').limit(imageSweepBatch).execute();
      if (rows.length === 0) return removed;
      const names = rows.map((row) => row.name);
      for (const name of names) await this.bytes.remove(name);
      await this.db.deleteFrom('image_files').where('name', 'in', names).execute();
      removed += names.length;
      if (names.length < imageSweepBatch) return removed;
    }
  }
}
