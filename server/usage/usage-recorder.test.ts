import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { testDatabases } from '../../test/helpers/test-databases.js';
import { createLogger } from '../logging/logger.js';
import type { GatewayDb } from '../store/database.js';
import { migrateToLatest } from '../store/migrations.js';
import { newUsageRecordId, type UsageRecord } from './usage-record.js';
import { UsageRecorder, type UsageRecorderOptions } from './usage-recorder.js';
import { UsageStore } from './usage-store.js';

function usage(requestId: string): UsageRecord {
  return {
    id: newUsageRecordId(),
    created_at: Date.now(),
    request_id: requestId,
    account_id: 'acct_a',
    key_id: 'key_a',
    model: 'alpha',
    deployment: null,
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    status: 200,
    input_tokens: 1,
    cached_input_tokens: 0,
    output_tokens: 1,
    reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null,
    image_count: 0,
    latency_ms: 1,
    cost_usd: 0,
    estimated: false,
    completed: true,
  };
}

const rows = (count: number, prefix = 'req') => Array.from({ length: count }, (_, index) => usage(`${prefix}_${index}`));
const requestIds = (records: readonly UsageRecord[]) => records.map((record) => record.request_id);

/** A store that keeps what it is given, can be told to fail, and notices overlapping writes. */
function fakeStore(options: { failures?: number; delayMs?: number } = {}) {
  let failuresLeft = options.failures ?? 0;
  let writing = 0;
  const fake = {
    batches: [] as UsageRecord[][],
    overlapped: false,
    get written() {
      return fake.batches.flat();
    },
    fail(times: number) {
      failuresLeft = times;
    },
    async insertMany(records: readonly UsageRecord[]) {
      writing += 1;
      if (writing > 1) fake.overlapped = true;
      try {
        await sleep(options.delayMs ?? 0);
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('database unreachable');
        }
        fake.batches.push([...records]);
      } finally {
        writing -= 1;
      }
    },
  };
  return fake;
}

function recorderFor(store: UsageRecorderOptions['store'], options: Partial<UsageRecorderOptions> = {}) {
  const logs: Array<{ msg: string; dropped?: number; lost?: number }> = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });
  const recorder = new UsageRecorder({ store, logger, flushIntervalMs: 60_000, ...options });
  return { recorder, logs };
}

test('a full batch is written at once, without waiting for the timer', async () => {
  const store = fakeStore();
  const { recorder } = recorderFor(store, { batchSize: 3 });
  const recorded = rows(7);
  for (const row of recorded) recorder.record(row);
  // The two full batches go at once; a loaded machine may take more than a few milliseconds to run them.
  for (let waited = 0; store.batches.length < 2 && waited < 2_000; waited += 10) await sleep(10);
  assert.deepEqual(store.batches.map((batch) => batch.length), [3, 3], 'the seventh row waits for the timer');
  await recorder.flush();
  assert.deepEqual(store.batches.map((batch) => batch.length), [3, 3, 1]);
  assert.deepEqual(requestIds(store.written), requestIds(recorded));
  await recorder.close();
});

test('rows short of a batch are written on the timer', async () => {
  const store = fakeStore();
  const { recorder } = recorderFor(store, { flushIntervalMs: 20 });
  recorder.record(usage('a'));
  recorder.record(usage('b'));
  assert.equal(store.batches.length, 0, 'record never writes on its own for a partial batch');
  await sleep(80);
  assert.deepEqual(store.batches.map(requestIds), [['a', 'b']]);
  await recorder.close();
});

test('close writes every row, also rows recorded while it runs and after', async () => {
  const store = fakeStore({ delayMs: 2 });
  const { recorder } = recorderFor(store, { batchSize: 100 });
  const recorded = rows(1_234);
  for (const row of recorded) recorder.record(row);
  const closing = recorder.close();
  const late = usage('late');
  recorder.record(late);
  await closing;
  recorder.record(usage('after'));
  await sleep(20);
  assert.deepEqual(requestIds(store.written), [...requestIds(recorded), 'late', 'after']);
  assert.equal(store.overlapped, false, 'one write at a time');
});

test('a failed write loses nothing: the rows are retried, in order, once', async () => {
  const store = fakeStore({ failures: 1 });
  const { recorder, logs } = recorderFor(store, { flushIntervalMs: 20 });
  const recorded = rows(5);
  for (const row of recorded) recorder.record(row);
  await assert.rejects(recorder.flush(), /database unreachable/);
  assert.equal(store.written.length, 0);
  assert.ok(logs.some((log) => log.msg.includes('write failed')));
  recorder.record(usage('later'));
  await sleep(80);
  assert.deepEqual(requestIds(store.written), [...requestIds(recorded), 'later']);
  await recorder.close();
});

test('close retries a failing database until the rows are in', async () => {
  const store = fakeStore({ failures: 3 });
  const { recorder } = recorderFor(store, { flushIntervalMs: 10 });
  const recorded = rows(50);
  for (const row of recorded) recorder.record(row);
  await recorder.close();
  assert.deepEqual(requestIds(store.written), requestIds(recorded));
});

test('close gives up on a database that stays down, saying how many rows are lost', async () => {
  const store = fakeStore({ failures: Infinity });
  const { recorder, logs } = recorderFor(store, { flushIntervalMs: 10, closeTimeoutMs: 50 });
  for (const row of rows(7)) recorder.record(row);
  await recorder.close();
  assert.equal(logs.find((log) => log.lost !== undefined)?.lost, 7);
});

test('while the database is down the queue stays bounded, dropping the oldest rows', async () => {
  const store = fakeStore({ failures: Infinity });
  const { recorder, logs } = recorderFor(store, { batchSize: 5, maxQueued: 20 });
  const recorded = rows(200);
  for (const row of recorded) {
    recorder.record(row);
    await sleep(0);
  }
  store.fail(0);
  await recorder.close();
  const written = requestIds(store.written);
  const dropped = logs.reduce((sum, log) => sum + (log.dropped ?? 0), 0);
  assert.ok(written.length >= 20 && written.length <= 30, `kept ${written.length}`);
  assert.deepEqual(written, requestIds(recorded.slice(-written.length)), 'the newest rows are the ones kept');
  assert.equal(dropped + written.length, recorded.length, 'every dropped row is counted in the log');
});

for (const [name, open] of testDatabases) {
  describe(`usage recorder on ${name}`, () => {
    let db: GatewayDb;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ db, cleanup } = await open());
      await migrateToLatest(db);
    });
    after(async () => {
      await db?.destroy();
      await cleanup?.();
    });

    test('10,000 rows recorded concurrently all arrive, one write at a time', async () => {
      const store = new UsageStore(db);
      let writing = 0;
      let overlapped = false;
      const watched = {
        async insertMany(records: readonly UsageRecord[]) {
          if (++writing > 1) overlapped = true;
          try {
            await store.insertMany(records);
          } finally {
            writing -= 1;
          }
        },
      };
      const { recorder } = recorderFor(watched, { flushIntervalMs: 5 });
      await Promise.all(
        Array.from({ length: 10_000 }, async (_, index) => {
          await sleep(Math.floor(Math.random() * 20));
          recorder.record(usage(`req_${index}`));
        }),
      );
      await recorder.close();
      assert.equal(await store.count({}), 10_000);
      assert.equal(overlapped, false);
    });
  });
}
