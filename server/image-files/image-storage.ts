import type { Readable } from 'node:stream';
import type { ImageFormat } from '../core/image-types.js';

/** A stored image opened for reading. */
export interface StoredImage {
  body: Readable;
  bytes: number;
  format: ImageFormat;
  expiresAt: number;
}

/**
 * Where images handed out as URLs live until they expire: on local disk (one instance, or a volume the
 * instances share) or in the store, which the instances on one PostgreSQL share (database-image-storage.ts);
 * `images.storage` picks (choose-image-storage.ts). An object store would implement the same three calls.
 */
export interface ImageStorage {
  /** Stores the bytes and resolves with the file name to put in the URL. */
  save(bytes: Buffer, format: ImageFormat, expiresAt: number): Promise<string>;
  /** The image, or undefined when the name is unknown, malformed or expired (an expired image may be deleted now or by the sweep). */
  open(name: string, now?: number): Promise<StoredImage | undefined>;
  /** Deletes every expired image and resolves with how many went. */
  deleteExpired(now?: number): Promise<number>;
}
