// The interface batches use (AccountFiles) on SQLite and a real PostgreSQL, with the local-disk storage and
// the database one: an input file read as numbered lines, an output file written from lines as they come,
// owner scoping, expiry, nothing left behind by a write that fails, and the leftovers of a crash mid-upload swept.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testDatabases, type TestDatabase } from '../../test/helpers/test-databases.js';
import { FileStore } from '../store/file-store.js';
import { migrateToLatest } from '../store/migrations.js';
import { abandonedWriteMs, AccountFiles } from './account-files.js';
import { newFileId } from './file-id.js';
import { openLedgerReads, type LedgerReads } from '../store/open-ledger-reads.js';
import { openSqliteReadCursors } from '../store/sqlite-worker-dialect.js';
import { DatabaseFileStorage } from './database-file-storage.js';
import { LocalDiskFileStorage } from './local-disk-file-storage.js';

for (const [name, open] of testDatabases) {
  for (const kind of ['disk', 'database'] as const) describeAccountFiles(name, open, kind);
}

function describeAccountFiles(name: string, open: () => Promise<TestDatabase>, kind: 'disk' | 'database') {
  describe(`account files on ${name}, ${kind} storage`, () => {
    let database: TestDatabase;
    let reads: LedgerReads;
    let directory: string;
    let files: AccountFiles;

    /** The IDs with anything in storage: files, partial writes, chunk rows. */
    const storedNames = async (): Promise<string[]> => {
      if (kind === 'disk') return readdir(directory);
      const rows = await database.db.selectFrom('file_chunks').select('file_id').union(database.db.selectFrom('file_contents').select('file_id')).execute();
      return rows.map((row) => row.file_id);
    };

    before(async () => {
      database = await open();
      await migrateToLatest(database.db);
      reads = await openLedgerReads(database.db);
      directory = await mkdtemp(join(tmpdir(), 'files-'));
      // Chunks of 1,000 bytes in the database, so lines cross chunk boundaries.
      const storage = kind === 'disk' ? new LocalDiskFileStorage(directory) : new DatabaseFileStorage(database.db, reads.db, 1000);
      files = new AccountFiles(new FileStore(database.db), storage, { maxLineBytes: 1024 });
    });
    after(async () => {
      // The thread answers in order: once it has answered this, no read-ahead of a stream broken off early is
      // still out (closing the thread under one was seen to leave reads.close() pending, the loop empty).
      await openSqliteReadCursors();
      await reads.close();
      await database.db.destroy();
      await database.cleanup();
      await rm(directory, { recursive: true, force: true });
    });

    test('writeFile streams lines into a batch_output file; openLines reads them back, numbered, for its owner only', async () => {
      let produced = 0;
      async function* results() {
        for (let index = 1; index <= 1000; index++) {
          produced = index;
          yield JSON.stringify({ id: `batch_req_${index}`, custom_id: `request-${index}`, response: { status_code: 200 } });
        }
      }
      const file = await files.writeFile('acct_a', { filename: 'batch_1_output.jsonl', purpose: 'batch_output' }, results());
      assert.equal(produced, 1000);
      assert.match(file.id, /^file-[0-9a-f]{32}$/);
      assert.equal(file.purpose, 'batch_output');
      assert.equal(file.createdByKeyId, undefined);
      assert.deepEqual(await files.get('acct_a', file.id), file);
      assert.equal(await files.get('acct_b', file.id), undefined, "another account's file is not there");
      assert.equal(await files.openLines('acct_b', file.id), undefined);

      const opened = await files.openLines('acct_a', file.id);
      assert.ok(opened);
      assert.equal(opened.file.bytes, file.bytes);
      let count = 0;
      for await (const line of opened.lines) {
        count += 1;
        assert.equal(line.number, count);
        assert.equal((JSON.parse(line.text) as { custom_id: string }).custom_id, `request-${count}`);
      }
      assert.equal(count, 1000);

      // Stopping early closes the content; a resumed reader skips by line number.
      const again = await files.openLines('acct_a', file.id);
      for await (const line of again!.lines) if (line.number === 10) break;
      assert.equal(await files.delete('acct_b', file.id), false);
      assert.equal(await files.delete('acct_a', file.id), true);
      assert.equal(await files.openLines('acct_a', file.id), undefined);
      assert.deepEqual(await storedNames(), []);
    });

    test('a write whose lines fail leaves nothing, and the error comes through', async () => {
      async function* failing() {
        yield '{"ok":1}';
        throw new Error('the runner stopped');
      }
      await assert.rejects(files.writeFile('acct_a', { filename: 'x.jsonl', purpose: 'batch_output' }, failing()), /the runner stopped/);
      await assert.rejects(files.writeFile('acct_a', { filename: 'x.jsonl', purpose: 'batch_output' }, ['a\nb']), /line end/);
      assert.deepEqual(await storedNames(), []);
      assert.deepEqual(await files.list('acct_a', { limit: 10, order: 'desc' }), { files: [], hasMore: false });
    });

    test('expired files are not found, and the sweep removes them with their content', async () => {
      const past = Math.floor(Date.now() / 1000) - 1;
      const file = await files.writeFile('acct_a', { filename: 'old.jsonl', purpose: 'batch_output', expiresAt: past }, ['{}']);
      assert.equal(await files.get('acct_a', file.id), undefined);
      assert.deepEqual(await storedNames(), [file.id]);
      assert.equal(await files.deleteExpired(), 1);
      assert.deepEqual(await storedNames(), []);
    });

    test('what an upload cut short by a crash left is swept once untouched for an hour; an upload going on is not', async () => {
      const now = Date.now();
      const kept = await files.writeFile('acct_a', { filename: 'kept.jsonl', purpose: 'batch_output' }, ['{}']);
      const [crashed, going, before] = [newFileId(), newFileId(), newFileId()];
      /** Leaves what a write of `id` had written by `at` when its instance stopped. */
      const leave = async (id: string, at: number | null) => {
        if (kind === 'disk') {
          const partial = join(directory, `.${id}.0badcafe.partial`);
          await writeFile(partial, 'half a file');
          if (at !== null) await utimes(partial, at / 1000, at / 1000);
          return;
        }
        const chunk = (sequence: number) => ({ file_id: id, sequence, data: Buffer.from('half'), written_at: at });
        await database.db.insertInto('file_chunks').values([chunk(0), chunk(1)]).execute();
      };
      await leave(crashed, now - abandonedWriteMs - 60_000);
      await leave(going, now - abandonedWriteMs + 60_000);
      // Chunks written before their time was kept (migration 0016) count as old.
      if (kind === 'database') await leave(before, null);
      const leftovers = kind === 'database' ? 2 : 1;
      assert.equal(await files.removeLeftovers(now), leftovers);
      const left = await storedNames();
      assert.ok(!left.some((entry) => entry.includes(crashed) || entry.includes(before)), `swept: ${left.join(', ')}`);
      assert.ok(left.some((entry) => entry.includes(going)), 'an upload written to within the hour is kept');
      assert.ok(left.includes(kept.id), 'a whole file is kept');
      assert.equal(await files.removeLeftovers(now), 0);
      await files.removeLeftovers(now + 2 * abandonedWriteMs);
      assert.deepEqual(await storedNames(), [kept.id]);
      await files.delete('acct_a', kept.id);
    });
  });
}
