import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromUsageRow, newUsageRecordId, toUsageRow, type UsageRecord } from './usage-record.js';

const record: UsageRecord = {
  id: newUsageRecordId(),
  created_at: 1_750_000_000_123,
  request_id: 'req_1',
  account_id: 'acct_1',
  key_id: 'key_1',
  model: 'gpt-x',
  deployment: null,
  protocol: 'openai-chat',
  endpoint: '/v1/chat/completions',
  status: 200,
  input_tokens: 10,
  cached_input_tokens: 0,
  output_tokens: 5,
  reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null,
  image_count: 0,
  latency_ms: 42,
  cost_usd: 0.001,
  estimated: true,
  completed: true,
};

test('IDs are use_ and 24 hex digits', () => {
  assert.match(newUsageRecordId(), /^use_[0-9a-f]{24}$/);
  assert.notEqual(newUsageRecordId(), newUsageRecordId());
});

test('a record survives the round trip through its row', () => {
  const row = toUsageRow(record);
  assert.equal(row.estimated, 1);
  assert.deepEqual(fromUsageRow(row), record);
  assert.equal(fromUsageRow({ ...row, estimated: 0 }).estimated, false);
  assert.equal(row.completed, 1);
  assert.equal(toUsageRow({ ...record, completed: false }).completed, 0);
  assert.equal(fromUsageRow({ ...row, completed: 0 }).completed, false);
});

test('rows are made to fit their columns', () => {
  const row = toUsageRow({ ...record, model: 'm'.repeat(300), output_tokens: 12.6, latency_ms: Number.NaN, cost_usd: Infinity });
  assert.equal(row.model, 'm'.repeat(256));
  assert.equal(row.output_tokens, 13);
  assert.equal(row.latency_ms, 0);
  assert.equal(row.cost_usd, 0);
});
