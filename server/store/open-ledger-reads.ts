import { Kysely, PostgresDialect } from 'kysely';
import { postgresPoolOf, sqliteFileOf, type Database, type GatewayDb } from './database.js';
import { createPostgresPool, postgresApplicationName } from './postgres-pool.js';
import { SqliteWorkerDialect } from './sqlite-worker-dialect.js';

/** Connections of the PostgreSQL pool for ledger reads: a report and an export at once, and no more. */
const readPoolSize = 2;

/**
 * How long PostgreSQL lets one ledger read run before it cancels it. An export reads in pages of 500
 * rows, so only a report over months of detail rows comes near it.
 */
export const ledgerReadTimeoutMs = 60_000;

/** What ledger reads run on, apart from the store's own connections. */
export interface LedgerReads {
  db: GatewayDb;
  /** True when `db` streams rows from a cursor (`.stream()`); otherwise read an export in keyset pages. */
  cursors: boolean;
  close(): Promise<void>;
}

/**
 * Opens the connections the usage ledger's reads (reports, record pages, exports) run on, so that none of
 * them ever waits on, or holds up, what serves model traffic:
 *
 * - SQLite: a worker thread with read-only connections to the same file (sqlite-worker-dialect.ts); the
 *   event loop only receives rows. It streams from a cursor.
 * - PostgreSQL: a pool of its own, {@link readPoolSize} connections with a server-side statement timeout,
 *   so a long report or export cannot take the connections that serve keys, limits and stored responses.
 *   `pg-cursor` is not installed, so exports read keyset pages over it.
 * - Anything else (a store not opened by `openDatabase`): the store itself.
 *
 * @example
 * const reads = await openLedgerReads(db);
 * const usage = new UsageStore(db, reads);
 * // on shutdown:
 * await reads.close();
 */
export async function openLedgerReads(db: GatewayDb): Promise<LedgerReads> {
  const file = sqliteFileOf(db);
  if (file) {
    const reads = new Kysely<Database>({ dialect: new SqliteWorkerDialect(file) });
    return { db: reads, cursors: true, close: () => reads.destroy() };
  }
  const postgres = postgresPoolOf(db);
  if (postgres) {
    const { default: pg } = await import('pg');
    const pool = createPostgresPool(pg, postgres.connectionString, {
      ...postgres.pool,
      max: readPoolSize,
      statementTimeoutMs: ledgerReadTimeoutMs,
      // The server's cancel comes first; dropping the connection is for a server that stopped answering.
      queryTimeoutMs: ledgerReadTimeoutMs + 5_000,
      applicationName: `${postgresApplicationName} ledger reads`,
    });
    const reads = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db: reads, cursors: false, close: () => reads.destroy() };
  }
  return { db, cursors: false, close: async () => {} };
}
