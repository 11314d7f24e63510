import type { Readable } from 'node:stream';

/** The bytes of one stored file, opened for reading. */
export interface StoredContent {
  body: Readable;
  bytes: number;
}

/**
 * Where the bytes of files live, by file ID; their metadata is in the store (store/file-store.ts). The
 * local-disk implementation suits one instance or a volume the instances share; the database one
 * (database-file-storage.ts) instances on one PostgreSQL share; `files.storage` picks (choose-file-storage.ts).
 * The image storage keeps images in the store through it too (image-files/database-image-storage.ts). An
 * object store (S3-compatible) would implement the same three calls.
 */
export interface FileStorage {
  /**
   * Streams `content` into the file `id` and resolves with the bytes written, never holding it whole. A
   * reader never sees half a file, and a write that fails (the source errors or is destroyed) leaves nothing.
   */
  write(id: string, content: Readable | AsyncIterable<Uint8Array | string>): Promise<number>;
  /** The content, or undefined when nothing is stored under the ID. */
  open(id: string): Promise<StoredContent | undefined>;
  /** Removes the content; nothing stored under the ID is not an error. */
  remove(id: string): Promise<void>;
  /**
   * Removes what writes that never finished left behind (the gateway stopped mid-upload, so the write could
   * not clean up after itself), once nothing was written to it since `before` (Unix ms): a write still
   * going on, on this instance or another sharing the storage, is never touched. Resolves with how many
   * such writes were removed (at most a few hundred a call; the next call takes the rest).
   */
  removeLeftovers(before: number): Promise<number>;
}
