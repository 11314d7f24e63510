// Image files in the store, on SQLite (reads on the reader thread) and a real PostgreSQL: the bytes go through
// the Files chunk store under the image's name, read back byte-exact until the expiry in the name, and the
// sweep removes expired images (row, chunks and completion marker) in rounds, leaving live ones.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { testDatabases, type TestDatabase } from '../../test/helpers/test-databases.js';
import { DatabaseFileStorage } from '../files/database-file-storage.js';
import type { FileStorage } from '../files/file-storage.js';
import { migrateToLatest } from '../store/migrations.js';
import { openLedgerReads, type LedgerReads } from '../store/open-ledger-reads.js';
import { openSqliteReadCursors } from '../store/sqlite-worker-dialect.js';
import { chooseImageStorage } from './choose-image-storage.js';
import { DatabaseImageStorage, imageSweepBatch } from './database-image-storage.js';
import { newImageFileName } from './image-file-name.js';
import { LocalDiskImageStorage } from './local-disk-image-storage.js';

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

const everything = Number.MAX_SAFE_INTEGER;

for (const [name, open] of testDatabases) {
  describe(`database image storage on ${name}`, () => {
    let database: TestDatabase;
    let reads: LedgerReads;
    let storage: DatabaseImageStorage;

    /** Names with anything left in the store: a row, chunks or a completion marker. */
    const leftovers = async (): Promise<string[]> => {
      const rows = await database.db
        .selectFrom('image_files')
        .select('name as id')
        .union(database.db.selectFrom('file_chunks').select('file_id as id'))
        .union(database.db.selectFrom('file_contents').select('file_id as id'))
        .execute();
      return rows.map((row) => row.id).sort();
    };

    before(async () => {
      database = await open();
      await migrateToLatest(database.db);
      reads = await openLedgerReads(database.db);
      // Chunks of 1000 bytes, so a small image crosses chunk boundaries.
      storage = new DatabaseImageStorage(database.db, new DatabaseFileStorage(database.db, reads.db, 1000));
    });
    after(async () => {
      await openSqliteReadCursors();
      await reads.close();
      await database.db.destroy();
      await database.cleanup();
    });

    test('auto keeps images in the store on PostgreSQL and on disk on SQLite; database and disk are what they say', () => {
      const choose = (setting: 'auto' | 'disk' | 'database') => chooseImageStorage({ setting, db: database.db, reads: reads.db, directory: '/nonexistent/images' });
      assert.ok(choose('auto') instanceof (name === 'PostgreSQL' ? DatabaseImageStorage : LocalDiskImageStorage), name);
      assert.ok(choose('database') instanceof DatabaseImageStorage);
      assert.ok(choose('disk') instanceof LocalDiskImageStorage);
    });

    test('saves in chunks, opens byte-exact with format and expiry until the expiry, then opens as nothing', async () => {
      const now = Date.now();
      const bytes = randomBytes(2500);
      const saved = await storage.save(bytes, 'webp', now + 60_000);
      assert.match(saved, /^img_[0-9a-z]+_[0-9a-f]{32}\.webp$/);
      const opened = await storage.open(saved, now);
      assert.ok(opened);
      assert.deepEqual([opened.bytes, opened.format, opened.expiresAt], [2500, 'webp', now + 60_000]);
      assert.ok((await readAll(opened.body)).equals(bytes));
      assert.equal(await storage.open(saved, now + 60_000), undefined, 'expired: not served, though the sweep has not run');
      assert.equal(await storage.deleteExpired(everything), 1);
      assert.deepEqual(await leftovers(), []);
    });

    test('unknown and malformed names open as nothing', async () => {
      assert.equal(await storage.open(newImageFileName('png', Date.now() + 60_000)), undefined);
      assert.equal(await storage.open('../../etc/passwd'), undefined);
      assert.equal(await storage.open('file-00000000000000000000000000000000'), undefined);
    });

    test('the sweep removes every expired image in rounds, rows and bytes, and leaves the live ones', async () => {
      const now = Date.now();
      const expired = imageSweepBatch + 5;
      for (let index = 0; index < expired; index++) await storage.save(Buffer.from(`expired ${index}`), 'png', now - 1 - index);
      const live = await storage.save(Buffer.from('live'), 'jpeg', now + 60_000);
      assert.equal(await storage.deleteExpired(now), expired);
      assert.deepEqual(await leftovers(), [live]);
      assert.equal(await storage.deleteExpired(now), 0);
      assert.equal(await readAll((await storage.open(live, now))!.body).then(String), 'live');
      await storage.deleteExpired(everything);
    });

    test('an image whose write never finished is swept once it expires; a write that fails leaves nothing', async () => {
      const now = Date.now();
      // An instance that died mid-write: the row and a first chunk, no completion marker.
      const orphan = newImageFileName('png', now - 1);
      await database.db.insertInto('image_files').values({ name: orphan, expires_at: now - 1 }).execute();
      await database.db.insertInto('file_chunks').values({ file_id: orphan, sequence: 0, data: Buffer.from('half') }).execute();
      assert.equal(await storage.open(orphan, now - 2), undefined, 'half an image is never served');
      assert.equal(await storage.deleteExpired(now), 1);
      assert.deepEqual(await leftovers(), []);

      const failing: FileStorage = {
        write: () => Promise.reject(new Error('disk full')),
        open: () => Promise.resolve(undefined),
        remove: () => Promise.resolve(),
        removeLeftovers: () => Promise.resolve(0),
      };
      await assert.rejects(new DatabaseImageStorage(database.db, failing).save(Buffer.from('x'), 'png', now + 60_000), /disk full/);
      assert.deepEqual(await leftovers(), []);
    });
  });
}
