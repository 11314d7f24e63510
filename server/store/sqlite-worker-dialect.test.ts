// The SQLite reader thread's dialect against a real file: the same rows as the store's own connection,
// cursors read a chunk at a time and closed when the consumer stops, and nothing but reads.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { sqliteDatabase } from '../../test/helpers/test-databases.js';
import { sqliteFileOf, type Database, type GatewayDb } from './database.js';
import { migrateToLatest } from './migrations.js';
import { openSqliteReadCursors, SqliteWorkerDialect } from './sqlite-worker-dialect.js';

let db: GatewayDb;
let reads: Kysely<Database>;
let cleanup: () => Promise<void>;

before(async () => {
  ({ db, cleanup } = await sqliteDatabase());
  await migrateToLatest(db);
  await db
    .insertInto('accounts')
    .values(Array.from({ length: 2_500 }, (_, index) => ({ id: `acct_${String(index).padStart(4, '0')}`, name: `n${index}`, created_at: index, disabled_at: null, permissions: '{}', limits: '{}' })))
    .execute();
  reads = new Kysely<Database>({ dialect: new SqliteWorkerDialect(sqliteFileOf(db)!) });
});
after(async () => {
  await reads?.destroy();
  await db?.destroy();
  await cleanup?.();
});

// The migrations' own default account is among them (created now, so >= 10): 2,491 rows.
const accounts = (from: Kysely<Database>) => from.selectFrom('accounts').select(['id', 'created_at']).where('created_at', '>=', 10).orderBy('id');

test('answers a query with the rows the store’s own connection sees', async () => {
  assert.deepEqual(await accounts(reads).execute(), await accounts(db).execute());
  assert.deepEqual(await reads.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(), { count: 2_501 });
});

test('streams every row in order, a chunk at a time, and holds a cursor only while it streams', async () => {
  const chunks: number[] = [];
  for await (const { rows } of reads.getExecutor().stream(accounts(reads).compile(), 1_000)) chunks.push(rows.length);
  assert.deepEqual(chunks, [1_000, 1_000, 491]);
  assert.equal(await openSqliteReadCursors(), 0, 'a cursor read to its end is closed');

  let seen = 0;
  for await (const _row of accounts(reads).stream(100)) {
    if (++seen === 150) {
      assert.equal(await openSqliteReadCursors(), 1);
      break;
    }
  }
  assert.equal(await openSqliteReadCursors(), 0, 'a consumer that stopped early closed the cursor');
});

test('runs reads only, and a failed statement leaves the thread working', async () => {
  await assert.rejects(reads.deleteFrom('accounts').execute(), /only statements that return rows/);
  await assert.rejects(sql`select * from no_such_table`.execute(reads), /no such table/);
  await assert.rejects(reads.transaction().execute(async () => {}), /no transactions/);
  assert.equal((await accounts(reads).execute()).length, 2_491);
  assert.equal((await db.selectFrom('accounts').selectAll().execute()).length, 2_501, 'nothing was deleted');
});
