import type { BatchStore } from '../../server/batches/batch-store.js';
import { openBatchStore } from '../../server/batches/open-batch-store.js';
import type { GatewayDb } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrations.js';
import type { TestDatabase } from './test-databases.js';

export interface TestBatchStore {
  /** The migrated store, for reading what the batch store wrote. */
  db: GatewayDb;
  store: BatchStore;
  /** Closes the batch store and the store, and drops the store. */
  close(): Promise<void>;
}

/**
 * A fresh, migrated store of one of `testDatabases`' kinds with the batch store on it, built as production builds it
 * (on SQLite, in its own thread: open-batch-store.ts).
 */
export async function openTestBatchStore(open: () => Promise<TestDatabase>): Promise<TestBatchStore> {
  const database = await open();
  await migrateToLatest(database.db);
  const batches = await openBatchStore(database.db);
  return {
    db: database.db,
    store: batches.store,
    close: async () => {
      await batches.close();
      await database.db.destroy();
      await database.cleanup();
    },
  };
}
