import { Readable } from 'node:stream';
import type { GatewayDb } from '../store/database.js';
import type { FileStorage, StoredContent } from './file-storage.js';

/** Abandoned files one call of removeLeftovers removes at most. */
const leftoversPerCall = 500;

/** The size of a stored chunk: a write holds at most about this much, and a read brings one chunk at a time. */
export const fileChunkBytes = 1024 * 1024;

/**
 * Files as rows of the store (`file_chunks`, 1 MiB each), so that every gateway instance on one PostgreSQL
 * serves a file any of them took. A write inserts each chunk as the source yields it and, once the last
 * one is in, the `file_contents` row that makes the file readable: a reader that finds no such row finds no
 * file, so half a file is never read, and a write that fails removes its chunks.
 *
 * Reads go chunk by chunk (one SELECT per chunk, by sequence) as the consumer asks for more, through
 * `reads`: on SQLite the store's reader thread (store/sqlite-worker-dialect.ts), so a 1 MiB blob is read off
 * the event loop; on PostgreSQL the store's own pool.
 *
 * @example
 * const storage = new DatabaseFileStorage(db, ledgerReads.db);
 * const bytes = await storage.write(id, upload);
 * const { body } = (await storage.open(id))!;
 */
export class DatabaseFileStorage implements FileStorage {
  constructor(
    private readonly db: GatewayDb,
    private readonly reads: GatewayDb = db,
    private readonly chunkBytes = fileChunkBytes,
  ) {}

  async write(id: string, content: Readable | AsyncIterable<Uint8Array | string>): Promise<number> {
    let sequence = 0;
    let bytes = 0;
    const insert = async (data: Buffer) => {
      await this.db.insertInto('file_chunks').values({ file_id: id, sequence, data, written_at: Date.now() }).execute();
      sequence += 1;
      bytes += data.length;
    };
    try {
      for await (const data of rechunk(content, this.chunkBytes)) await insert(data);
      await this.db.insertInto('file_contents').values({ file_id: id, bytes, chunks: sequence }).execute();
    } catch (error) {
      await this.removeChunks(id).catch(() => undefined);
      throw error;
    }
    return bytes;
  }

  async open(id: string): Promise<StoredContent | undefined> {
    const whole = await this.reads.selectFrom('file_contents').select(['bytes', 'chunks']).where('file_id', '=', id).executeTakeFirst();
    if (!whole) return undefined;
    const chunks = Number(whole.chunks);
    let next = 0;
    const body = new Readable({
      // One chunk per read: the next SELECT only when the consumer has taken the last one (backpressure).
      read: () => {
        if (next === chunks) return void body.push(null);
        const sequence = next++;
        this.reads
          .selectFrom('file_chunks')
          .select('data')
          .where('file_id', '=', id)
          .where('sequence', '=', sequence)
          .executeTakeFirst()
          .then(
            (row) => {
              // Deleted while being read: the disk keeps an open file for its reader, rows are simply gone.
              if (!row) return void body.destroy(new Error(`file ${id}: chunk ${sequence} is gone (the file was deleted while it was read)`));
              body.push(Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength));
            },
            (error: unknown) => body.destroy(error as Error),
          );
      },
    });
    return { body, bytes: Number(whole.bytes) };
  }

  async remove(id: string): Promise<void> {
    // The marker first: from then on no reader opens the file, whatever is left of its chunks.
    await this.db.deleteFrom('file_contents').where('file_id', '=', id).execute();
    await this.removeChunks(id);
  }

  /**
   * Chunks of files that never got their `file_contents` row, the newest written before `before` (a write
   * still going on writes a chunk per MiB it receives). A file's chunks go only while it still has no
   * `file_contents` row, so a write finishing at that moment keeps them.
   */
  async removeLeftovers(before: number): Promise<number> {
    const abandoned = await this.db
      .selectFrom('file_chunks')
      .select('file_id')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('file_contents').select('file_contents.file_id').whereRef('file_contents.file_id', '=', 'file_chunks.file_id'))))
      .groupBy('file_id')
      .having((eb) => eb.fn.max(eb.fn.coalesce('written_at', eb.lit(0))), '<', before)
      .limit(leftoversPerCall)
      .execute();
    for (const { file_id: id } of abandoned) {
      await this.db
        .deleteFrom('file_chunks')
        .where('file_id', '=', id)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('file_contents').select('file_contents.file_id').where('file_contents.file_id', '=', id))))
        .execute();
    }
    return abandoned.length;
  }

  private async removeChunks(id: string): Promise<void> {
    await this.db.deleteFrom('file_chunks').where('file_id', '=', id).execute();
  }
}

/** The source's bytes in pieces of exactly `size` (the last one shorter), holding at most about one piece. */
async function* rechunk(content: Readable | AsyncIterable<Uint8Array | string>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of content as AsyncIterable<Uint8Array | string>) {
    let buffer = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + buffer.length >= size) {
      const take = size - pendingBytes;
      // A copy: the source may reuse its buffer once it is given back control.
      yield Buffer.concat([...pending, buffer.subarray(0, take)]);
      buffer = buffer.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (buffer.length > 0) {
      pending.push(Buffer.from(buffer));
      pendingBytes += buffer.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
