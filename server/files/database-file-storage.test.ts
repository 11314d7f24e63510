// The file storage in the store's rows, on SQLite (reads on the reader thread) and a real PostgreSQL:
// written in chunks as the source yields, read back byte-exact chunk by chunk, never readable half written,
// nothing left by a source that fails, and nothing left after a delete.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { testDatabases, type TestDatabase } from '../../test/helpers/test-databases.js';
import { migrateToLatest } from '../store/migrations.js';
import { openLedgerReads, type LedgerReads } from '../store/open-ledger-reads.js';
import { openSqliteReadCursors } from '../store/sqlite-worker-dialect.js';
import { DatabaseFileStorage, fileChunkBytes } from './database-file-storage.js';
import { newFileId } from './file-id.js';

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

/** `data` in pieces of the given sizes, round-robin (pieces that straddle chunk boundaries). */
async function* pieces(data: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (let offset = 0, index = 0; offset < data.length; index++) {
    const size = sizes[index % sizes.length]!;
    yield data.subarray(offset, offset + size);
    offset += size;
  }
}

for (const [name, open] of testDatabases) {
  describe(`database file storage on ${name}`, () => {
    let database: TestDatabase;
    let reads: LedgerReads;
    let storage: DatabaseFileStorage;

    const chunkRows = async (id: string) =>
      Number((await database.db.selectFrom('file_chunks').select((eb) => eb.fn.countAll().as('rows')).where('file_id', '=', id).executeTakeFirstOrThrow()).rows);

    before(async () => {
      database = await open();
      await migrateToLatest(database.db);
      reads = await openLedgerReads(database.db);
      storage = new DatabaseFileStorage(database.db, reads.db);
    });
    after(async () => {
      // The thread answers in order: once it has answered this, no read-ahead of a stream broken off early is
      // still out (closing the thread under one was seen to leave reads.close() pending, the loop empty).
      await openSqliteReadCursors();
      await reads.close();
      await database.db.destroy();
      await database.cleanup();
    });

    test('a 3.5 MiB source in uneven pieces is stored in 1 MiB chunks and reads back byte-exact', async () => {
      const data = randomBytes(3.5 * fileChunkBytes);
      const id = newFileId();
      assert.equal(await storage.write(id, pieces(data, [1, 70_000, 3 * fileChunkBytes, 12_345])), data.length);
      assert.equal(await chunkRows(id), 4);
      const opened = await storage.open(id);
      assert.equal(opened?.bytes, data.length);
      assert.ok((await readAll(opened.body)).equals(data));
    });

    test('strings, an empty source and a Readable are stored as their bytes', async () => {
      const text = 'héllo\n'.repeat(1000);
      const id = newFileId();
      assert.equal(await storage.write(id, Readable.from(['héllo\n'.repeat(400), 'héllo\n'.repeat(600)])), Buffer.byteLength(text));
      assert.equal((await readAll((await storage.open(id))!.body)).toString('utf8'), text);

      const empty = newFileId();
      assert.equal(await storage.write(empty, Readable.from([])), 0);
      const opened = await storage.open(empty);
      assert.equal(opened?.bytes, 0);
      assert.equal((await readAll(opened.body)).length, 0);
    });

    test('a file is not readable until its last chunk is in', async () => {
      const id = newFileId();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let firstChunkIn!: () => void;
      const halfway = new Promise<void>((resolve) => (firstChunkIn = resolve));
      async function* slow() {
        yield Buffer.alloc(fileChunkBytes, 'a');
        yield Buffer.alloc(10, 'b');
        firstChunkIn();
        await held;
        yield Buffer.alloc(10, 'c');
      }
      const writing = storage.write(id, slow());
      await halfway;
      assert.equal(await chunkRows(id), 1, 'the first chunk is written as it comes');
      assert.equal(await storage.open(id), undefined, 'but the file is not there yet');
      release();
      assert.equal(await writing, fileChunkBytes + 20);
      assert.equal((await storage.open(id))?.bytes, fileChunkBytes + 20);
    });

    test('a source that fails leaves nothing', async () => {
      const id = newFileId();
      async function* failing() {
        yield randomBytes(2 * fileChunkBytes + 5);
        throw new Error('the client went away');
      }
      await assert.rejects(storage.write(id, failing()), /the client went away/);
      assert.equal(await chunkRows(id), 0);
      assert.equal(await storage.open(id), undefined);
    });

    test('remove deletes the chunks; removing nothing is no error', async () => {
      const id = newFileId();
      await storage.write(id, Readable.from([randomBytes(fileChunkBytes + 1)]));
      await storage.remove(id);
      assert.equal(await storage.open(id), undefined);
      assert.equal(await chunkRows(id), 0);
      await storage.remove(id);
      await storage.remove('file-nothing');
    });

    test('a reader that stops early is fine, and a file deleted while read ends its stream with an error', async () => {
      const id = newFileId();
      await storage.write(id, Readable.from([randomBytes(3 * fileChunkBytes)]));
      const early = (await storage.open(id))!;
      for await (const _ of early.body) break;

      const opened = (await storage.open(id))!;
      const iterator = opened.body[Symbol.asyncIterator]();
      await iterator.next();
      await storage.remove(id);
      await assert.rejects(async () => {
        while (!(await iterator.next()).done);
      }, /deleted while it was read/);
    });
  });
}
