// The SQLite ledger's writer thread (see sqlite-ledger-writer.ts). Plain JavaScript because Node 20 does not
// apply `--import tsx` to a worker's entry module.
//
// Its own connection to the gateway's file, prepared statements, each batch in one transaction, all or
// none. A row whose ID is stored already is skipped, as in `UsageStore.insertMany`, so a retried batch that
// did land is harmless; a row stored is added to its hour's rollup in the same transaction (the sums of
// usage-rollup.ts, here in SQL). Retention's deletes run here too, a batch per message, so that they never
// hold the event loop and take turns with the inserts.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSqlite } from '../store/load-sqlite.mjs';

const SQLite = await loadSqlite();
const sqlite = new SQLite(workerData.file);
// WAL is a property of the file (the gateway set it); busy_timeout is per connection: wait for the other
// connection's writes rather than fail the batch.
sqlite.pragma('busy_timeout = 5000');

/** The `usage_records` columns (store/database.ts), each bound by name from a row. */
const columns = workerData.columns;
/** The rollups' key columns and sums besides `requests` (usage-rollup.ts). */
const { keyColumns, sums, msPerHour } = workerData.rollups;

/** Prepared on the first batch, and again on the next if preparing failed (a store not migrated yet). */
let insertAll;
function prepareInsertAll() {
  const insert = sqlite.prepare(
    `INSERT INTO usage_records (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
  );
  // Numbers are bound as REAL: cast, so that the divisions are the integer ones of migration 0007.
  const addToRollup = sqlite.prepare(
    `INSERT INTO usage_rollups (${[...keyColumns, 'requests', ...sums].join(', ')})
     VALUES (CAST(@created_at AS INTEGER) / ${msPerHour}, @account_id, @key_id, coalesce(@model, ''), CAST(@status AS INTEGER) / 100, 1, ${sums.map((column) => `@${column}`).join(', ')})
     ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${['requests', ...sums].map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`,
  );
  return sqlite.transaction((rows) => {
    for (const row of rows) if (insert.run(row).changes === 1) addToRollup.run(row);
  });
}

/** One batch of retention's deletes: at most `limit` rows older than `before` (Unix ms), oldest first. */
let deleteOldest;
function prepareDeleteOldest() {
  return sqlite.prepare('DELETE FROM usage_records WHERE id IN (SELECT id FROM usage_records WHERE created_at < ? ORDER BY created_at LIMIT ?)');
}

parentPort.on('message', ({ id, rows, deleteBefore }) => {
  try {
    if (deleteBefore) {
      deleteOldest ??= prepareDeleteOldest();
      parentPort.postMessage({ id, changes: deleteOldest.run(deleteBefore.time, deleteBefore.limit).changes });
      return;
    }
    insertAll ??= prepareInsertAll();
    insertAll(rows);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
