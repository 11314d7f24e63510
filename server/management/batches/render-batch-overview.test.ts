import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchRecord } from '../../batches/batch-types.js';
import { renderBatchOverview } from './render-batch-overview.js';

const batch = (fields: Partial<BatchRecord>): BatchRecord => ({
  id: 'batch_1',
  accountId: 'acct_1',
  keyId: 'key_1',
  protocol: 'openai',
  status: 'ended',
  metadata: {},
  lineCount: 4,
  counts: { processing: 0, succeeded: 2, errored: 1, canceled: 1, expired: 0 },
  createdAt: 1_767_225_600_500,
  startedAt: 1_767_225_601_000,
  endedAt: 1_767_225_609_999,
  expiresAt: 1_767_312_000_500,
  cancelRequestedAt: null,
  finishedAt: null,
  finish: null,
  ...fields,
});

test("an OpenAI batch's files come from its finish, once written; it has no results URL", () => {
  const written = renderBatchOverview(batch({ finishedAt: 1_767_225_610_000, finish: { outputFileId: 'file-out', errorFileId: 'file-err', usage: null } }), 'http://gw');
  assert.equal(written.kind, 'openai');
  assert.equal(written.output_file_id, 'file-out');
  assert.equal(written.error_file_id, 'file-err');
  assert.equal(written.results_url, null);
  assert.deepEqual(written.request_counts, { total: 4, processing: 0, succeeded: 2, errored: 1, canceled: 1, expired: 0 });
  assert.deepEqual([written.created_at, written.started_at, written.ended_at, written.expires_at], [1_767_225_600, 1_767_225_601, 1_767_225_609, 1_767_312_000]);
  const running = renderBatchOverview(batch({ status: 'in_progress', endedAt: null }), 'http://gw');
  assert.equal(running.output_file_id, null);
  assert.equal(running.error_file_id, null);
  assert.equal(running.ended_at, null);
});

test('an Anthropic batch links its results once it has ended', () => {
  const anthropic = batch({ id: 'msgbatch_1', protocol: 'anthropic' });
  assert.equal(renderBatchOverview(anthropic, 'http://gw').results_url, 'http://gw/v1/messages/batches/msgbatch_1/results');
  assert.equal(renderBatchOverview({ ...anthropic, status: 'canceling' }, 'http://gw').results_url, null);
  assert.ok(!('output_file_id' in renderBatchOverview(anthropic, 'http://gw')));
});
