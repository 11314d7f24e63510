// Reports from the hourly rollups equal the sums over the rows, on both databases, written through the
// gateway's own write paths: the SQLite writer thread and UsageStore.insertMany (PostgreSQL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { testDatabases } from '../../test/helpers/test-databases.js';
import { sqliteFileOf, type GatewayDb } from '../store/database.js';
import { migrateToLatest } from '../store/migrations.js';
import { deleteRowsBefore, retentionBatchRows } from './ledger-retention.js';
import { SqliteLedgerWriter } from './sqlite-ledger-writer.js';
import type { UsageGrouping, UsageSummaryRow } from './summarize-usage.js';
import { toUsageRow, type UsageRecord } from './usage-record.js';
import { UsageStore, type UsageFilter } from './usage-store.js';

const hour = 3_600_000;
const start = Date.UTC(2025, 2, 1);
const groupings: UsageGrouping[] = ['day', 'model', 'key'];

const accounts = ['acct_a', 'acct_b'];
const keys = ['key_1', 'key_2', 'key_3'];
const models = ['alpha', 'beta', null];

let serial = 0;
/** A row of random traffic; costs are multiples of 2^-10, so that their sums are exact in any order. */
const recordArbitrary = fc
  .record({
    offset: fc.oneof(fc.integer({ min: 0, max: 4 * 24 * hour - 1 }), fc.integer({ min: 0, max: 4 * 24 }).map((hours) => hours * hour)),
    account: fc.nat(accounts.length - 1),
    key: fc.nat(keys.length - 1),
    model: fc.nat(models.length - 1),
    status: fc.constantFrom(200, 201, 400, 403, 429, 499, 500, 502),
    input: fc.nat(1_000_000),
    cached: fc.nat(1_000),
    output: fc.nat(100_000),
    reasoning: fc.nat(1_000),
    images: fc.nat(4),
    cost: fc.nat(100_000),
    estimated: fc.boolean(),
  })
  .map((fields): UsageRecord => ({
    id: `use_${serial++}`,
    created_at: start + fields.offset,
    request_id: 'req_x',
    account_id: accounts[fields.account],
    key_id: keys[fields.key],
    model: models[fields.model],
    deployment: null,
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    status: fields.status,
    input_tokens: fields.input,
    cached_input_tokens: fields.cached,
    output_tokens: fields.output,
    reasoning_tokens: fields.reasoning,
    // Some writes to the cache, some of them to the 1-hour one, so the rollups' sums of both are checked too.
    cache_write_input_tokens: fields.input % 5,
    cache_write_1h_input_tokens: fields.input % 2,
    price_tier_above_tokens: 0,
    service_tier: null,
    batch: false,
    batch_id: null,
    image_count: fields.images,
    latency_ms: 10,
    cost_usd: fields.cost / 1024,
    estimated: fields.estimated,
    completed: fields.status !== 499,
  }));

/** A time in or around the traffic: on an hour or not, or none (an open end). */
const edgeArbitrary = fc.option(fc.oneof(fc.integer({ min: -hour, max: 5 * 24 * hour }), fc.integer({ min: -1, max: 5 * 24 }).map((hours) => hours * hour)), { nil: undefined });

const filterArbitrary = fc
  .record({ from: edgeArbitrary, to: edgeArbitrary, by: fc.constantFrom('none', 'account', 'key', 'model'), pick: fc.nat(2) })
  .map(({ from, to, by, pick }): UsageFilter => ({
    from: from === undefined ? undefined : start + from,
    to: to === undefined ? undefined : start + to,
    ...(by === 'account' && { accountId: accounts[pick % accounts.length] }),
    ...(by === 'key' && { keyId: keys[pick] }),
    // `model=` (empty) asks for the requests without one.
    ...(by === 'model' && { model: models[pick] ?? '' }),
  }));

/** The report as a sum over the rows themselves: what the old raw-row query returned. */
function expectedReport(records: readonly UsageRecord[], filter: UsageFilter, groupBy: UsageGrouping): UsageSummaryRow[] {
  const groups = new Map<string, UsageSummaryRow>();
  for (const record of records) {
    if (filter.accountId !== undefined && record.account_id !== filter.accountId) continue;
    if (filter.keyId !== undefined && record.key_id !== filter.keyId) continue;
    if (filter.model !== undefined && (record.model ?? '') !== filter.model) continue;
    if (filter.from !== undefined && record.created_at < filter.from) continue;
    if (filter.to !== undefined && record.created_at >= filter.to) continue;
    const label = { day: new Date(record.created_at).toISOString().slice(0, 10), model: record.model, key: record.key_id }[groupBy];
    const name = String(label);
    const group = groups.get(name) ?? { [{ day: 'day', model: 'model', key: 'key_id' }[groupBy]]: label, requests: 0, input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, output_tokens: 0, reasoning_tokens: 0, image_count: 0, cost_usd: 0 } as UsageSummaryRow;
    group.requests += 1;
    group.input_tokens += record.input_tokens;
    group.cached_input_tokens += record.cached_input_tokens;
    group.cache_write_input_tokens += record.cache_write_input_tokens;
    group.cache_write_1h_input_tokens += record.cache_write_1h_input_tokens;
    group.output_tokens += record.output_tokens;
    group.reasoning_tokens += record.reasoning_tokens;
    group.image_count += record.image_count;
    group.cost_usd += record.cost_usd;
    groups.set(name, group);
  }
  const order = (row: UsageSummaryRow) => row.day ?? row.key_id ?? row.model ?? '\uffff';
  return [...groups.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** Hours rounded down, as reports treat edges before retention's horizon. */
const roundedDown = (time: number | undefined) => (time === undefined ? undefined : Math.floor(time / hour) * hour);

async function countRows(db: GatewayDb, table: 'usage_records' | 'usage_rollups'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

for (const [name, open] of testDatabases) {
  describe(`usage rollups on ${name}`, () => {
    let db: GatewayDb;
    let cleanup: () => Promise<void>;
    let store: UsageStore;
    /** The write path the gateway uses on this database. */
    let ledger: SqliteLedgerWriter | UsageStore;

    before(async () => {
      ({ db, cleanup } = await open());
      await migrateToLatest(db);
      store = new UsageStore(db);
      const file = sqliteFileOf(db);
      ledger = file ? new SqliteLedgerWriter(file) : store;
    });
    after(async () => {
      if (ledger instanceof SqliteLedgerWriter) await ledger.close();
      await db?.destroy();
      await cleanup?.();
    });
    const emptyLedger = async () => {
      await db.deleteFrom('usage_records').execute();
      await db.deleteFrom('usage_rollups').execute();
    };

    test('reports equal the sums over the rows for random traffic, every grouping and range, duplicates written twice counted once', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(recordArbitrary, { minLength: 1, maxLength: 120 }),
          fc.array(fc.nat(119), { maxLength: 20 }),
          fc.array(filterArbitrary, { minLength: 1, maxLength: 6 }),
          async (records, repeats, filters) => {
            await emptyLedger();
            // In batches, as the recorder sends them; some rows again (a retried write that had landed),
            // some twice within one batch.
            const again = repeats.map((index) => records[index % records.length]);
            await ledger.insertMany([...records.slice(0, records.length >> 1), ...again.slice(0, 3)]);
            await ledger.insertMany([...records.slice(records.length >> 1), ...again]);
            assert.equal(await countRows(db, 'usage_records'), records.length);
            for (const filter of filters) {
              for (const groupBy of groupings) {
                assert.deepEqual(await store.summarize(filter, groupBy), expectedReport(records, filter, groupBy), `${groupBy} ${JSON.stringify(filter)}`);
              }
            }
          },
        ),
        { numRuns: 25 },
      );
    });

    test('retention deletes the rows before its horizon in batches, and reports still add up', async () => {
      await emptyLedger();
      const old = Array.from({ length: retentionBatchRows * 2 + 7 }, (_, index) => toRecord(start + (index % (48 * 60)) * 60_000, index));
      const recent = Array.from({ length: 300 }, (_, index) => toRecord(start + 48 * hour + index * 60_000 + 17, old.length + index));
      for (let offset = 0; offset < old.length; offset += 2_000) await ledger.insertMany(old.slice(offset, offset + 2_000));
      await ledger.insertMany(recent);
      const all = [...old, ...recent];
      const horizon = start + 48 * hour;
      const ranges: UsageFilter[] = [{}, { from: start }, { from: start + 1_000, to: start + 49 * hour + 5 }, { from: start + 24 * hour + 59 * 60_000, to: horizon + 1 }, { accountId: 'acct_a' }];

      assert.equal(await deleteRowsBefore(ledger, horizon), old.length);
      assert.equal(await countRows(db, 'usage_records'), recent.length, 'only the rows since the horizon are left');
      assert.equal(await deleteRowsBefore(ledger, horizon), 0);
      for (const filter of ranges) {
        // An edge before the horizon counts its whole hour; after it, to the millisecond.
        const whole = { ...filter, from: filter.from !== undefined && filter.from < horizon ? roundedDown(filter.from) : filter.from };
        for (const groupBy of groupings) {
          assert.deepEqual(await store.summarize(filter, groupBy, horizon), expectedReport(all, whole, groupBy), `${groupBy} ${JSON.stringify(filter)}`);
        }
      }
      assert.deepEqual(await store.summarize({ to: start + 30 * 60_000 }, 'key', horizon), [], 'an end before the horizon is rounded down too');
    });

    test('the migration builds the rollups of the rows stored before it', async () => {
      // A store as migration 0006 left it: rows, no rollups.
      const legacy = await open();
      const legacyStore = new UsageStore(legacy.db);
      const file = sqliteFileOf(legacy.db);
      const legacyLedger = file ? new SqliteLedgerWriter(file) : legacyStore;
      try {
        await migrateToLatest(legacy.db, '0006_usage_records_completed');
        // Rows of that time had no cache-write columns (migration 0009 gives them 0) and no batch_id (0012).
        const records = fc.sample(recordArbitrary, { numRuns: 500, seed: 33 }).map((record) => ({ ...record, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0 }));
        const legacyRows = records.map((record) => {
          const { cache_write_input_tokens: _w, cache_write_1h_input_tokens: _h, price_tier_above_tokens: _t, service_tier: _s, batch: _b, batch_id: _id, ...row } = toUsageRow(record);
          return row;
        });
        await legacy.db.insertInto('usage_records').values(legacyRows as never).execute();
        await migrateToLatest(legacy.db);
        for (const groupBy of groupings) assert.deepEqual(await legacyStore.summarize({}, groupBy), expectedReport(records, {}, groupBy));
        // And the writers add to them from there.
        const later = fc.sample(recordArbitrary, { numRuns: 50, seed: 34 });
        await legacyLedger.insertMany(later);
        assert.deepEqual(await legacyStore.summarize({ from: start + 1_234 }, 'model'), expectedReport([...records, ...later], { from: start + 1_234 }, 'model'));
      } finally {
        if (legacyLedger instanceof SqliteLedgerWriter) await legacyLedger.close();
        await legacy.db.destroy();
        await legacy.cleanup();
      }
    });
  });
}

function toRecord(createdAt: number, index: number): UsageRecord {
  return {
    id: `use_ret_${index}`,
    created_at: createdAt,
    request_id: 'req_r',
    account_id: accounts[index % 2],
    key_id: keys[index % 3],
    model: models[index % 3],
    deployment: null,
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    status: index % 5 === 0 ? 500 : 200,
    input_tokens: index,
    cached_input_tokens: index % 7,
    output_tokens: 3,
    reasoning_tokens: 1,
    cache_write_input_tokens: index % 5,
    cache_write_1h_input_tokens: index % 2,
    price_tier_above_tokens: 0,
    service_tier: null,
    batch: false,
    batch_id: null,
    image_count: 0,
    latency_ms: 5,
    cost_usd: (index % 64) / 64,
    estimated: false,
    completed: true,
  };
}
