// The SQLite ledger's writer thread against a real SQLite file, read back through the gateway's own store.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase, sqliteFileOf, type GatewayDb } from '../store/database.js';
import { migrateToLatest } from '../store/migrations.js';
import { SqliteLedgerWriter } from './sqlite-ledger-writer.js';
import type { UsageRecord } from './usage-record.js';
import { UsageStore } from './usage-store.js';

let dataDir: string;
let db: GatewayDb;
let writer: SqliteLedgerWriter;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ledger-'));
  db = await openDatabase({ dataDir });
  await migrateToLatest(db);
  writer = new SqliteLedgerWriter(sqliteFileOf(db)!);
});

after(async () => {
  await writer.close();
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

function record(id: string, fields: Partial<UsageRecord> = {}): UsageRecord {
  return {
    id,
    created_at: Date.UTC(2026, 0, 2),
    request_id: `req_${id}`,
    account_id: 'acct_ledger',
    key_id: 'key_ledger',
    model: 'alpha',
    deployment: 'openai/alpha',
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    status: 200,
    input_tokens: 10,
    cached_input_tokens: 2,
    output_tokens: 5,
    reasoning_tokens: 1, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null,
    image_count: 0,
    latency_ms: 42,
    cost_usd: 0.5,
    estimated: false,
    completed: true,
    ...fields,
  };
}

const stored = (accountId: string) => new UsageStore(db).list({ accountId }, { limit: 1_000 });

test('rows written by the thread are what the store reads back, fitted to their columns as UsageStore fits them', async () => {
  await writer.insertMany([
    record('use_t1'),
    record('use_t2', { estimated: true, input_tokens: 7.6, model: null, deployment: null, request_id: 'r'.repeat(500), cost_usd: Number.NaN }),
  ]);
  const rows = await stored('acct_ledger');
  assert.deepEqual(rows.find((row) => row.id === 'use_t1'), record('use_t1'));
  assert.deepEqual(rows.find((row) => row.id === 'use_t2'), record('use_t2', { estimated: true, input_tokens: 8, model: null, deployment: null, request_id: 'r'.repeat(160), cost_usd: 0 }));
});

test('a batch that repeats stored IDs stores only the new rows, so a retried batch is harmless', async () => {
  await writer.insertMany([record('use_r1', { account_id: 'acct_retry' })]);
  await writer.insertMany([record('use_r1', { account_id: 'acct_retry', status: 500 }), record('use_r2', { account_id: 'acct_retry' })]);
  const rows = await stored('acct_retry');
  assert.deepEqual(rows.map((row) => [row.id, row.status]).sort(), [['use_r1', 200], ['use_r2', 200]]);
});

test('a thousand rows in one batch land in one transaction', async () => {
  const batch = Array.from({ length: 1_000 }, (_, index) => record(`use_bulk_${index}`, { account_id: 'acct_bulk' }));
  await writer.insertMany(batch);
  assert.equal((await stored('acct_bulk')).length, 1_000);
});

test('a batch the database refuses is rejected with its error, and the next one is written once the database allows it', async () => {
  const emptyDir = await mkdtemp(join(tmpdir(), 'ledger-empty-'));
  const empty = await openDatabase({ dataDir: emptyDir });
  const emptyWriter = new SqliteLedgerWriter(sqliteFileOf(empty)!);
  try {
    await assert.rejects(emptyWriter.insertMany([record('use_e1')]), /no such table: usage_records/);
    await migrateToLatest(empty);
    await emptyWriter.insertMany([record('use_e1')]);
    assert.deepEqual((await new UsageStore(empty).list({}, { limit: 10 })).map((row) => row.id), ['use_e1']);
  } finally {
    await emptyWriter.close();
    await empty.destroy();
    await rm(emptyDir, { recursive: true, force: true });
  }
});

test('after close, a batch starts a new thread rather than being lost', async () => {
  await writer.close();
  await writer.insertMany([record('use_c1', { account_id: 'acct_close' })]);
  assert.equal((await stored('acct_close')).length, 1);
});
