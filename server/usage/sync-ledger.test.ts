import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../logging/logger.js';
import { SyncLedger } from './sync-ledger.js';
import { newUsageRecordId, type UsageRecord } from './usage-record.js';

const logger = createLogger('silent');

function usage(requestId: string): UsageRecord {
  return {
    id: newUsageRecordId(), created_at: Date.now(), request_id: requestId, account_id: 'acct_a', key_id: 'key_a', model: 'alpha',
    deployment: null, protocol: 'openai-chat', endpoint: 'POST /v1/chat/completions', status: 200, input_tokens: 1,
    cached_input_tokens: 0, output_tokens: 1, reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null, image_count: 0, latency_ms: 1, cost_usd: 0, estimated: false, completed: true,
  };
}

/** A store whose inserts wait until the test lets them finish (or fail), and that notices overlapping inserts. */
function gatedStore() {
  const inserts: Array<{ requestIds: string[]; finish: (error?: Error) => void }> = [];
  let running = 0;
  let overlapped = false;
  return {
    inserts,
    get overlapped() {
      return overlapped;
    },
    insertMany(records: readonly UsageRecord[]): Promise<void> {
      running += 1;
      if (running > 1) overlapped = true;
      return new Promise((resolve, reject) => {
        inserts.push({
          requestIds: records.map((record) => record.request_id),
          finish: (error) => {
            running -= 1;
            if (error) reject(error);
            else resolve();
          },
        });
      });
    },
  };
}

const settledYet = async (promise: Promise<unknown>) => {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

test('commits wait for their insert; rows that arrive during one insert go together in the next', async () => {
  const store = gatedStore();
  const queued: UsageRecord[] = [];
  const ledger = new SyncLedger({ store, fallback: { record: (row) => queued.push(row) }, timeoutMs: 60_000, logger });
  const first = ledger.commit(usage('a'));
  const others = [ledger.commit(usage('b')), ledger.commit(usage('c'))];
  assert.deepEqual(store.inserts.map((insert) => insert.requestIds), [['a']]);
  assert.equal(await settledYet(first), false, 'not committed before its insert finished');
  store.inserts[0]!.finish();
  await first;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(store.inserts.map((insert) => insert.requestIds), [['a'], ['b', 'c']]);
  assert.equal(await settledYet(Promise.all(others)), false);
  store.inserts[1]!.finish();
  await Promise.all(others);
  assert.equal(store.overlapped, false, 'one insert at a time');
  assert.deepEqual(queued, [], 'nothing fell back to the queue');
  await ledger.idle();
});

test('a failed insert hands its rows to the write-behind queue, and commit still resolves', async () => {
  const store = gatedStore();
  const queued: UsageRecord[] = [];
  const ledger = new SyncLedger({ store, fallback: { record: (row) => queued.push(row) }, timeoutMs: 60_000, logger });
  const commits = [ledger.commit(usage('a')), ledger.commit(usage('b'))];
  store.inserts[0]!.finish(new Error('connection refused'));
  await commits[0];
  store.inserts[1]!.finish(new Error('connection refused'));
  await commits[1];
  assert.deepEqual(queued.map((row) => row.request_id), ['a', 'b']);
});

test('an insert slower than the timeout: commit resolves after the timeout with the row queued', async () => {
  const store = gatedStore();
  const queued: UsageRecord[] = [];
  const ledger = new SyncLedger({ store, fallback: { record: (row) => queued.push(row) }, timeoutMs: 50, logger });
  const started = Date.now();
  await ledger.commit(usage('slow'));
  const waited = Date.now() - started;
  assert.ok(waited >= 45 && waited < 1_000, `waited ${waited} ms`);
  assert.deepEqual(queued.map((row) => row.request_id), ['slow']);
  // The insert still lands later; the store skips the queued copy's ID then.
  store.inserts[0]!.finish();
  await ledger.idle();
});
