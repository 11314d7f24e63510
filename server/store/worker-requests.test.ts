// Closing a SQLite thread (the ledger's reader, the batch store's) while a statement runs in it: better-sqlite3
// cannot be interrupted, and the thread stops only once the statement returns (seconds for a large report),
// so close used to wait that long and the request learnt nothing until then. Now the request is rejected at
// once, a later one is refused (it used to start a new thread that nothing closed), and close settles within
// closeWaitMs. (The process still waits for the statement at exit: Node joins its threads.)
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { Kysely, sql } from 'kysely';
import { sqliteDatabase } from '../../test/helpers/test-databases.js';
import { sqliteFileOf, type Database, type GatewayDb } from './database.js';
import { migrateToLatest } from './migrations.js';
import { SqliteWorkerDialect } from './sqlite-worker-dialect.js';
import { closeWaitMs, WorkerRequests } from './worker-requests.js';

let db: GatewayDb;
let cleanup: () => Promise<void>;

before(async () => {
  ({ db, cleanup } = await sqliteDatabase());
  await migrateToLatest(db);
});
after(async () => {
  await db?.destroy();
  await cleanup?.();
});

/** A statement that keeps SQLite busy for seconds (counting 5 million rows), in native code all along. */
const slow = (reads: Kysely<Database>) => sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 5000000) select count(*) as n from c`.execute(reads);

for (const writable of [false, true]) {
  test(`closing the ${writable ? 'batch store' : 'reader'} thread mid-statement rejects the request at once and settles within ${closeWaitMs} ms`, async () => {
    const reads = new Kysely<Database>({ dialect: new SqliteWorkerDialect(sqliteFileOf(db)!, { writable }) });
    await sql`select 1`.execute(reads); // the thread is up
    let settledAt: number | undefined;
    const inFlight = slow(reads).then(
      () => assert.fail('the statement was not cut short'),
      (error: Error) => {
        settledAt = performance.now();
        return error;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const start = performance.now();
    await reads.destroy();
    const closedAt = performance.now();
    const error = await inFlight;
    assert.match(error.message, /closed before answering/);
    assert.ok(settledAt !== undefined && settledAt <= closedAt, 'the request was rejected before close resolved');
    assert.ok(closedAt - start < closeWaitMs + 500, `close took ${Math.round(closedAt - start)} ms`);
  });
}

test('a request after close is refused and starts no new thread (a stream\'s late read-ahead used to)', async () => {
  const echo = 'require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage({ id: m.id }))';
  const thread = new WorkerRequests(() => new Worker(echo, { eval: true }), 'test thread');
  assert.deepEqual(await thread.send({}), { id: 1 });
  await thread.close();
  await assert.rejects(thread.send({}), /test thread is closed/);
  assert.equal(thread.running, false);
});
