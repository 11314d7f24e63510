// The runner over a real store (SQLite): a line whose ledger row metering keeps only after its answer was read
// (a slow close under load) still gets its row, written on its own once it comes. The executor here stands in
// for the in-process front door (http/batch-lines/send-line-in-process.ts), which hands such a row on as
// `lateRow` when its grace has passed.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { openTestBatchStore, type TestBatchStore } from '../../test/helpers/batch-store.js';
import { testDatabases } from '../../test/helpers/test-databases.js';
import { newUsageRecordId, type UsageRecord } from '../usage/usage-record.js';
import { BatchRunner } from './batch-runner.js';
import type { BatchStore } from './batch-store.js';
import type { LineExecutor } from './line-executor.js';

const [, openSqlite] = testDatabases.find(([name]) => name === 'SQLite')!;
let batches: TestBatchStore;
let store: BatchStore;
before(async () => {
  batches = await openTestBatchStore(openSqlite);
  ({ store } = batches);
});
after(() => batches.close());

const rowFor = (batchId: string, requestId: string): UsageRecord => ({
  id: newUsageRecordId(), created_at: Date.now(), request_id: requestId, account_id: 'acct_a', key_id: 'key_a', model: 'm', deployment: 'd',
  protocol: 'anthropic-messages', endpoint: '/v1/messages', status: 200, input_tokens: 3, cached_input_tokens: 0, cache_write_input_tokens: 0,
  cache_write_1h_input_tokens: 0, output_tokens: 2, reasoning_tokens: 0, image_count: 0, latency_ms: 1, cost_usd: 0, price_tier_above_tokens: 0,
  service_tier: null, batch: true, estimated: false, completed: true, batch_id: batchId,
});

test('a row kept after the answer was read is written when it comes: no execution is left out of the ledger', async () => {
  const now = Date.now();
  const lines = Array.from({ length: 3 }, (_, index) => ({ customId: `c${index}`, endpoint: '/v1/messages', body: '{}' }));
  await store.create({ id: 'msgbatch_late_rows', accountId: 'acct_a', keyId: 'key_a', protocol: 'anthropic', lines, createdAt: now, expiresAt: now + 86_400_000 });
  const executor: LineExecutor = {
    async execute(line) {
      const requestId = `req_late_${line.position}`;
      return { status: 200, body: '{}', requestId, lateRow: sleep(200).then(() => rowFor(line.batchId, requestId)) };
    },
    errorBody: () => ({ status: 500, body: '{}' }),
  };
  const runner = new BatchRunner({ store, executor, logger: pino({ level: 'silent' }), linesInFlight: 2, pollIntervalMs: 20, leaseMs: 5_000, maxAttempts: 3 });
  runner.start();
  try {
    for (let waited = 0; (await store.get('msgbatch_late_rows', 'acct_a'))?.status !== 'ended'; waited += 20) {
      assert.ok(waited < 10_000, 'the batch ends');
      await sleep(20);
    }
    let rows: Array<{ request_id: string }> = [];
    for (let waited = 0; rows.length < 3 && waited < 5_000; waited += 50) {
      rows = await batches.db.selectFrom('usage_records').select('request_id').where('batch_id', '=', 'msgbatch_late_rows').execute();
      await sleep(50);
    }
    assert.deepEqual(rows.map((row) => row.request_id).sort(), ['req_late_0', 'req_late_1', 'req_late_2']);
  } finally {
    await runner.stop();
  }
});
