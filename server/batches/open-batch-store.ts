import { Kysely } from 'kysely';
import { sqliteFileOf, type Database, type GatewayDb } from '../store/database.js';
import { SqliteWorkerDialect } from '../store/sqlite-worker-dialect.js';
import { BatchStore } from './batch-store.js';
import { UpstreamBatchStore } from './upstream/upstream-batch-store.js';

/**
 * The batch store on the connections it runs on, so that nothing a batch does holds up model traffic:
 *
 * - SQLite: a worker thread with a read-write connection of its own to the same file (sqlite-worker-dialect.ts
 *   with `writable`); on the event loop, better-sqlite3's claims and outcomes, several statements a line,
 *   multiplied the interactive median by 6.6 while a batch ran (bench scenario f, issue 37).
 * - PostgreSQL (already asynchronous) and any other store: the store itself.
 *
 * @example
 * const batches = await openBatchStore(db);
 * new BatchRunner({ store: batches.store, ... });
 * // on shutdown, after the runner stopped:
 * await batches.close();
 */
export async function openBatchStore(db: GatewayDb): Promise<{ store: BatchStore; upstream: UpstreamBatchStore; close(): Promise<void> }> {
  const file = sqliteFileOf(db);
  if (!file) return { store: new BatchStore(db), upstream: new UpstreamBatchStore(db), close: async () => {} };
  const threadDb = new Kysely<Database>({ dialect: new SqliteWorkerDialect(file, { writable: true }) });
  return { store: new BatchStore(threadDb), upstream: new UpstreamBatchStore(threadDb), close: () => threadDb.destroy() };
}
