// The SQLite ledger's writer thread (see sqlite-ledger-writer.ts). Plain JavaScript because Node 20 does not
// apply `--import tsx` to a worker's entry module.
//
// Its own connection to the gateway's file, one prepared statement, each batch in one transaction, all or
// none. A row whose ID is stored already is skipped, as in `UsageStore.insertMany`, so a retried batch that
// did land is harmless.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSqlite } from '../store/load-sqlite.mjs';

const SQLite = await loadSqlite();
const sqlite = new SQLite(workerData.file);
// WAL is a property of the file (the gateway set it); busy_timeout is per connection: wait for the other
// connection's writes rather than fail the batch.
sqlite.pragma('busy_timeout = 5000');

/** The `usage_records` columns (store/database.ts), each bound by name from a row. */
const columns = workerData.columns;

/** Prepared on the first batch, and again on the next if preparing failed (a store not migrated yet). */
let insertAll;
function prepareInsertAll() {
  const insert = sqlite.prepare(
    `INSERT INTO usage_records (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
  );
  return sqlite.transaction((rows) => {
    for (const row of rows) insert.run(row);
  });
}

parentPort.on('message', ({ id, rows }) => {
  try {
    insertAll ??= prepareInsertAll();
    insertAll(rows);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
