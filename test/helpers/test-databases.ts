import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type GatewayDb } from '../../server/store/database.js';

export const postgresUrl = process.env.GATEWAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  db: GatewayDb;
  cleanup(): Promise<void>;
}

/** An embedded SQLite store in a temporary directory. */
export async function sqliteDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-'));
  const db = await openDatabase({ dataDir });
  return { db, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

/** The real PostgreSQL, in a schema of its own per run, so parallel runs and reruns never see each other's rows. */
export async function postgresDatabase(): Promise<TestDatabase> {
  const schema = `store_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await openDatabase({ dataDir: '', databaseUrl: `${postgresUrl}?options=-c%20search_path%3D${schema}` });
  return {
    db,
    cleanup: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** Both stores the gateway speaks, for tests that run once per database. */
export const testDatabases = [
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
] as const;

/**
 * A fresh schema on the real PostgreSQL and a connection string that works in it, for gateways (or
 * gateway processes) that open the database themselves; several of them can share one.
 */
export async function postgresSchemaUrl(): Promise<{ url: string; cleanup(): Promise<void> }> {
  const schema = `gw_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL is not running at ${postgresUrl}: ${error.message}`);
  });
  await admin.query(`CREATE SCHEMA ${schema}`);
  return {
    url: `${postgresUrl}?options=-c%20search_path%3D${schema}`,
    cleanup: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export const redisUrl = process.env.GATEWAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Both stores as a gateway opens them: SQLite in its own data directory (no URL), or a fresh PostgreSQL schema. */
export const gatewayDatabases = [
  ['SQLite', async () => ({ url: undefined, cleanup: async () => {} })],
  ['PostgreSQL', postgresSchemaUrl],
] as const;
