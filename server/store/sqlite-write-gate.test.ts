// The batch store's thread (SqliteWorkerDialect with `writable`) beside the event loop's own connection to the
// same file: writes answered as Kysely's SqliteDriver answers them, transactions that commit or roll back, and
// the write gate: a write on the event loop while the thread's transaction holds SQLite's lock waits for it
// asynchronously. Without the gate, better-sqlite3 would sleep on the lock on the event loop for busy_timeout
// (5 s) while the thread waited for the loop to post its next statement, and the write would then fail.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { sqliteDatabase } from '../../test/helpers/test-databases.js';
import { sqliteFileOf, type Database, type GatewayDb } from './database.js';
import { migrateToLatest } from './migrations.js';
import { SqliteWorkerDialect } from './sqlite-worker-dialect.js';

let db: GatewayDb;
let thread: Kysely<Database>;
let cleanup: () => Promise<void>;

before(async () => {
  ({ db, cleanup } = await sqliteDatabase());
  await migrateToLatest(db);
  thread = new Kysely<Database>({ dialect: new SqliteWorkerDialect(sqliteFileOf(db)!, { writable: true }) });
});
after(async () => {
  await thread?.destroy();
  await db?.destroy();
  await cleanup?.();
});

const account = (id: string) => ({ id, name: id, created_at: 1, disabled_at: null, permissions: '{}', limits: '{}' });

test('writes report what they changed; RETURNING returns rows; a failed transaction leaves nothing', async () => {
  const inserted = await thread.insertInto('accounts').values([account('acct_w1'), account('acct_w2')]).executeTakeFirstOrThrow();
  assert.equal(inserted.numInsertedOrUpdatedRows, 2n);
  assert.equal(typeof inserted.insertId, 'bigint');
  const updated = await thread.updateTable('accounts').set({ name: 'renamed' }).where('id', 'in', ['acct_w1', 'acct_w2', 'acct_none']).executeTakeFirst();
  assert.equal(updated.numUpdatedRows, 2n);
  assert.deepEqual(await thread.updateTable('accounts').set({ created_at: 2 }).where('id', '=', 'acct_w1').returning(['id', 'created_at']).execute(), [{ id: 'acct_w1', created_at: 2 }]);
  await assert.rejects(
    thread.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account('acct_rolled_back')).execute();
      await trx.insertInto('accounts').values(account('acct_w1')).execute(); // a duplicate key
    }),
  );
  assert.equal(await db.selectFrom('accounts').select('id').where('id', '=', 'acct_rolled_back').executeTakeFirst(), undefined);
  assert.equal((await db.selectFrom('accounts').select('name').where('id', '=', 'acct_w2').executeTakeFirstOrThrow()).name, 'renamed', 'the event loop sees the thread’s writes');
});

test('a write on the event loop during a thread transaction waits for it without holding the loop', async () => {
  let letCommit!: () => void;
  const held = new Promise<void>((resolve) => (letCommit = resolve));
  let inTransaction!: () => void;
  const started = new Promise<void>((resolve) => (inTransaction = resolve));
  const transaction = thread.transaction().execute(async (trx) => {
    await trx.insertInto('accounts').values(account('acct_thread_1')).execute();
    inTransaction();
    // The thread holds SQLite's write lock and waits for the event loop's next statement.
    await held;
    await trx.insertInto('accounts').values(account('acct_thread_2')).execute();
  });
  await started;
  const mainWrite = db.insertInto('accounts').values(account('acct_loop')).execute();
  const before = performance.now();
  await sleep(200);
  const late = performance.now() - before - 200;
  assert.ok(late < 1_000, `the event loop ran on while its write waited (a timer ${late.toFixed(0)} ms late)`);
  letCommit();
  await transaction;
  await mainWrite;
  const ids = await db.selectFrom('accounts').select('id').where('id', 'in', ['acct_thread_1', 'acct_thread_2', 'acct_loop']).execute();
  assert.equal(ids.length, 3, 'both writers wrote');
});
