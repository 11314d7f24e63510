// The usage store on both databases it speaks: embedded SQLite and a real PostgreSQL (127.0.0.1:5432).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testDatabases } from '../../test/helpers/test-databases.js';
import type { GatewayDb } from '../store/database.js';
import { migrateToLatest } from '../store/migrations.js';
import { openLedgerReads, type LedgerReads } from '../store/open-ledger-reads.js';
import { newUsageRecordId, type UsageRecord } from './usage-record.js';
import type { UsageListPosition } from './usage-store.js';
import { maxExportRows, maxListLimit, UsageStore } from './usage-store.js';

const day = (date: string, hour = 0) => Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000;

function usage(fields: Partial<UsageRecord>): UsageRecord {
  return {
    id: newUsageRecordId(),
    created_at: day('2025-03-01'),
    request_id: 'req_x',
    account_id: 'acct_a',
    key_id: 'key_a1',
    model: 'alpha',
    deployment: 'openai/alpha',
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    status: 200,
    input_tokens: 100,
    cached_input_tokens: 20,
    output_tokens: 10,
    reasoning_tokens: 2, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null,
    image_count: 0,
    latency_ms: 300,
    cost_usd: 0.25,
    estimated: false,
    completed: true,
    ...fields,
  };
}

const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≈ ${expected}`);

for (const [name, open] of testDatabases) {
  describe(`usage store on ${name}`, () => {
    let db: GatewayDb;
    let cleanup: () => Promise<void>;
    let store: UsageStore;
    let reads: LedgerReads;
    const records = [
      usage({ created_at: day('2025-03-01', 1), model: 'beta' }),
      usage({ created_at: day('2025-03-01', 23), estimated: true, completed: false, status: 499 }),
      usage({ created_at: day('2025-03-02', 0), key_id: 'key_a2', output_tokens: 5_000_000_000 }),
      usage({ created_at: day('2025-03-03', 12), account_id: 'acct_b', key_id: 'key_b1', model: null, image_count: 2, cost_usd: 0.08 }),
    ];

    before(async () => {
      ({ db, cleanup } = await open());
      await migrateToLatest(db);
      // Every read below goes where the gateway sends it: the reader thread (SQLite), the read pool (PostgreSQL).
      reads = await openLedgerReads(db);
      store = new UsageStore(db, reads);
      await store.insertMany(records);
    });
    after(async () => {
      await reads?.close();
      await db?.destroy();
      await cleanup?.();
    });

    test('lists newest first, with every field as it was recorded', async () => {
      const listed = await store.list({}, { limit: 10 });
      assert.deepEqual(listed, [...records].reverse());
      assert.deepEqual(await store.list({}, { limit: 2 }), [records[3], records[2]]);
      assert.deepEqual(await store.list({ accountId: 'acct_a' }, { limit: 10, after: { createdAt: records[2].created_at, id: records[2].id } }), [records[1], records[0]]);
      assert.equal((await store.list({}, { limit: 5_000 })).length, 4);
    });

    test('filters by account, key, model and time ([from, to))', async () => {
      assert.equal(await store.count({}), 4);
      assert.equal(await store.count({ accountId: 'acct_a' }), 3);
      assert.equal(await store.count({ keyId: 'key_a2' }), 1);
      assert.equal(await store.count({ model: 'alpha' }), 2);
      assert.equal(await store.count({ from: day('2025-03-02'), to: day('2025-03-03', 12) }), 1);
      assert.equal(await store.count({ from: day('2025-03-02'), to: day('2025-03-03', 12) + 1 }), 2);
      assert.equal(await store.count({ accountId: 'acct_a', model: 'beta' }), 1);
    });

    test('summarizes per UTC day', async () => {
      const rows = await store.summarize({}, 'day');
      assert.deepEqual(rows.map((row) => [row.day, row.requests]), [['2025-03-01', 2], ['2025-03-02', 1], ['2025-03-03', 1]]);
      const [first, second, third] = rows;
      assert.deepEqual({ ...first, cost_usd: 0 }, {
        day: '2025-03-01', requests: 2, input_tokens: 200, cached_input_tokens: 40, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, output_tokens: 20, reasoning_tokens: 4, image_count: 0, cost_usd: 0,
      });
      closeTo(first.cost_usd, 0.5);
      assert.equal(second.output_tokens, 5_000_000_000, 'sums beyond 32 bits stay exact');
      assert.equal(third.image_count, 2);
      assert.deepEqual((await store.summarize({ accountId: 'acct_b' }, 'day')).map((row) => row.day), ['2025-03-03']);
    });

    test('summarizes per model, the unnamed model last', async () => {
      const rows = await store.summarize({}, 'model');
      assert.deepEqual(rows.map((row) => [row.model, row.requests]), [['alpha', 2], ['beta', 1], [null, 1]]);
      assert.equal(rows[0].output_tokens, 5_000_000_010);
      closeTo(rows[2].cost_usd, 0.08);
      assert.deepEqual(await store.summarize({ from: day('2030-01-01') }, 'model'), []);
    });

    test('inserts more rows than one statement may bind, and skips IDs already stored', async () => {
      const many = Array.from({ length: 4_000 }, (_, index) => usage({ created_at: day('2025-04-01') + index, account_id: 'acct_many' }));
      await store.insertMany(many);
      await store.insertMany(many.slice(0, 10)); // a retried write that had landed
      await store.insertMany([]);
      assert.equal(await store.count({ accountId: 'acct_many' }), 4_000);
    });

    test('pages say whether more follow, at the largest page size too', async () => {
      const rows = Array.from({ length: maxListLimit + 1 }, (_, index) => usage({ created_at: day('2025-05-01') + (index % 7), account_id: 'acct_pages' }));
      await store.insertMany(rows);
      const first = await store.page({ accountId: 'acct_pages' }, { limit: maxListLimit });
      assert.deepEqual([first.records.length, first.more], [maxListLimit, true]);
      const last = first.records.at(-1)!;
      const second = await store.page({ accountId: 'acct_pages' }, { limit: maxListLimit, after: { createdAt: last.created_at, id: last.id } });
      assert.deepEqual([second.records.length, second.more], [1, false]);
      const seen = new Set([...first.records, ...second.records].map((record) => record.id));
      assert.equal(seen.size, rows.length, 'every row once');
      assert.deepEqual((await store.page({ accountId: 'acct_pages' }, { limit: maxListLimit + 1 })).records.length, maxListLimit, 'a larger limit is clamped');
    });

    test('exports every matching record newest first, in chunks, up to the limit and from a position', async () => {
      const rows = Array.from({ length: 1_234 }, (_, index) => usage({ created_at: day('2025-06-01') + (index % 300), account_id: 'acct_export' }));
      await store.insertMany(rows);
      const exported = async (options: Parameters<UsageStore['records']>[1]) => {
        const chunks: number[] = [];
        const ids: string[] = [];
        for await (const chunk of store.records({ accountId: 'acct_export' }, options)) {
          chunks.push(chunk.length);
          ids.push(...chunk.map((record) => record.id));
        }
        return { chunks, ids };
      };
      const all = await exported({ limit: maxExportRows });
      const pages: string[] = [];
      for (let after: UsageListPosition | undefined, more = true; more; ) {
        const page = await store.page({ accountId: 'acct_export' }, { limit: maxListLimit, after });
        pages.push(...page.records.map((record) => record.id));
        const last = page.records.at(-1)!;
        ({ more } = page);
        after = { createdAt: last.created_at, id: last.id };
      }
      assert.deepEqual(all.ids, pages, 'the pages’ records in the pages’ order');
      assert.ok(all.chunks.length > 1 && all.chunks.every((size) => size <= 1_000), `chunks of at most 1,000: ${all.chunks}`);
      assert.deepEqual((await exported({ limit: 7 })).ids, pages.slice(0, 7));
      const at = await store.list({ accountId: 'acct_export' }, { limit: 10 });
      assert.deepEqual((await exported({ limit: 3, after: { createdAt: at[9].created_at, id: at[9].id } })).ids, pages.slice(10, 13));

      let taken = 0;
      for await (const _chunk of store.records({ accountId: 'acct_export' }, { limit: maxExportRows })) if (++taken === 1) break;
      assert.equal(await store.count({ accountId: 'acct_export' }), 1_234, 'the reads still answer after an export broken off');
    });
  });
}
