// `npx tsx scripts/bench/ledger-growth.ts [--rows 1000000] [--postgres <url>]`: how long migration 0007
// takes to build the usage rollups of a large store, and how many MB the ledger takes per million rows
// (rows, rollups and their indexes), and how long the console's reports then take, on SQLite and on PostgreSQL (a schema of its own, dropped at the end).
// Rows are spread over 60 days, 3 accounts, 20 keys and 6 models, statuses mostly 200. Figures in README.md.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, sqliteFileOf, type GatewayDb } from '../../server/store/database.js';
import { loadSqlite } from '../../server/store/load-sqlite.mjs';
import { migrateToLatest } from '../../server/store/migrations.js';
import { summarizeUsage } from '../../server/usage/summarize-usage.js';
import { usageColumns } from '../../server/usage/usage-record.js';

const days = 60;
const msPerDay = 86_400_000;
const start = Date.UTC(2026, 0, 1);

/** The store as it was before migration 0007: the rows, no rollups. */
async function undoRollups(db: GatewayDb): Promise<void> {
  await db.schema.dropTable('usage_rollups').execute();
  await db.deleteFrom('kysely_migration' as never).where(sql.ref('name'), '=', '0007_usage_rollups').execute();
}

/**
 * The i-th row: the widths of the gateway's IDs, spread evenly over `days`. IDs in scattered order, as the gateway's random
 * ones are (multiplying by an odd constant modulo 2^64 is one-to-one), so the ID index splits pages as it does.
 */
function row(index: number, rows: number, start: number) {
  const hex = ((BigInt(index) * 0x9e3779b97f4a7c15n) & 0xffff_ffff_ffff_ffff_ffffn).toString(16).padStart(24, '0');
  return {
    id: `use_${hex}`,
    created_at: start + Math.floor((index / rows) * days * msPerDay),
    request_id: `req_${hex}`,
    account_id: `acct_${(index % 3).toString().padStart(16, '0')}`,
    key_id: `key_${(index % 20).toString().padStart(16, '0')}`,
    model: ['gpt-4o-mini', 'claude-sonnet-4', 'gemini-2.5-flash', 'text-embedding-3-small', 'gpt-image-1', 'builtin/echo'][index % 6],
    deployment: 'openai/gpt-4o-mini',
    protocol: 'openai-chat',
    endpoint: 'POST /v1/chat/completions',
    status: index % 50 === 0 ? 429 : 200,
    input_tokens: 200 + (index % 1_000),
    cached_input_tokens: index % 100,
    output_tokens: 50 + (index % 400),
    reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: 0,
    image_count: 0,
    latency_ms: 300 + (index % 900),
    cost_usd: 0.000_123,
    estimated: 0,
    completed: 1,
  };
}

async function fillSqlite(file: string, rows: number, start: number): Promise<void> {
  const SQLite = await loadSqlite();
  const sqlite = new SQLite(file);
  const insert = sqlite.prepare(`INSERT INTO usage_records (${usageColumns.join(', ')}) VALUES (${usageColumns.map((column) => `@${column}`).join(', ')})`);
  sqlite.transaction(() => {
    for (let index = 0; index < rows; index++) insert.run(row(index, rows, start));
  })();
  sqlite.close();
}

async function fillPostgres(db: GatewayDb, rows: number, start: number): Promise<void> {
  for (let offset = 0; offset < rows; offset += 1_000) {
    await db.insertInto('usage_records').values(Array.from({ length: Math.min(1_000, rows - offset) }, (_, index) => row(offset + index, rows, start))).execute();
  }
}

async function measure(name: string, db: GatewayDb, fill: () => Promise<void>, size: () => Promise<number>, rows: number): Promise<void> {
  await migrateToLatest(db);
  await undoRollups(db);
  const filling = performance.now();
  await fill();
  const filled = performance.now();
  const began = performance.now();
  await migrateToLatest(db);
  const migrated = performance.now() - began;
  const { count } = await db.selectFrom('usage_rollups').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  const bytes = await size();
  // The console's reports: 30 days by day, model and key, each the best of three.
  const timings = [];
  for (const groupBy of ['day', 'model', 'key'] as const) {
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const began = performance.now();
      await summarizeUsage(db, { from: start + 20 * msPerDay + 1_234, to: start + 50 * msPerDay + 5_678 }, groupBy);
      best = Math.min(best, performance.now() - began);
    }
    timings.push(`${groupBy} ${best.toFixed(0)} ms`);
  }
  console.log(
    `${name}: ${rows.toLocaleString('en-US')} rows (filled in ${((filled - filling) / 1000).toFixed(1)} s), migration 0007 ${(migrated / 1000).toFixed(1)} s, ` +
      `${Number(count).toLocaleString('en-US')} rollup rows, ${(bytes / 1e6 / (rows / 1e6)).toFixed(0)} MB per million rows (${(bytes / 1e6).toFixed(0)} MB); 30-day reports: ${timings.join(', ')}`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { rows: { type: 'string', default: '1000000' }, postgres: { type: 'string' } } });
  const rows = Number(values.rows);

  const dataDir = await mkdtemp(join(tmpdir(), 'ledger-growth-'));
  const sqliteDb = await openDatabase({ dataDir });
  const file = sqliteFileOf(sqliteDb)!;
  try {
    await measure('SQLite', sqliteDb, () => fillSqlite(file, rows, start), async () => {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(sqliteDb);
      return (await stat(file)).size;
    }, rows);
  } finally {
    await sqliteDb.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }

  if (!values.postgres) return;
  const schema = `ledger_growth_${process.pid}`;
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const postgresDb = await openDatabase({ dataDir: '', databaseUrl: `${values.postgres}?options=-c%20search_path%3D${schema}` });
  try {
    await measure('PostgreSQL', postgresDb, () => fillPostgres(postgresDb, rows, start), async () => {
      await sql`vacuum analyze usage_records`.execute(postgresDb);
      const { rows: [sizes] } = await sql<{ bytes: string }>`select pg_total_relation_size('usage_records') + pg_total_relation_size('usage_rollups') as bytes`.execute(postgresDb);
      return Number(sizes.bytes);
    }, rows);
  } finally {
    await postgresDb.destroy();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

await main();
