import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchRecord } from '../../batches/batch-types.js';
import { renderBatch, type OpenAIBatchMetadata } from './render-batch.js';

const metadata: OpenAIBatchMetadata = { endpoint: '/v1/chat/completions', inputFileId: 'file-in', completionWindow: '24h', metadata: null };

const batch = (fields: Partial<BatchRecord>): BatchRecord => ({
  id: 'batch_1',
  accountId: 'acct_1',
  keyId: 'key_1',
  protocol: 'openai',
  status: 'in_progress',
  metadata: metadata as unknown as Record<string, unknown>,
  lineCount: 2,
  counts: { processing: 2, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
  createdAt: 1_767_225_600_500,
  startedAt: null,
  endedAt: null,
  expiresAt: 1_767_312_000_500,
  cancelRequestedAt: null,
  finishedAt: null,
  finish: null,
  ...fields,
});

test("OpenAI's status follows the runner's through a batch's life", () => {
  const cancelled = { cancelRequestedAt: 1_767_225_605_000 };
  const ended = { status: 'ended' as const, endedAt: 1_767_225_609_000 };
  const written = { ...ended, finishedAt: 1_767_225_610_000, finish: { outputFileId: 'file-out', errorFileId: null, usage: null } };
  const cases: Array<[Partial<BatchRecord>, string]> = [
    [{ status: 'validating' }, 'validating'],
    [{ status: 'validating', ...cancelled }, 'cancelling'],
    [{}, 'in_progress'],
    [{ status: 'canceling', ...cancelled }, 'cancelling'],
    [ended, 'finalizing'],
    [{ ...ended, ...cancelled }, 'cancelling'],
    [written, 'completed'],
    [{ ...written, ...cancelled }, 'cancelled'],
    [{ ...written, counts: { processing: 0, succeeded: 1, errored: 0, canceled: 0, expired: 1 } }, 'expired'],
  ];
  for (const [fields, status] of cases) assert.equal(renderBatch(batch(fields)).status, status, JSON.stringify(fields));
});

test('a batch cancelled while its lines were stored says when the cancel came, and has not started', () => {
  const rendered = renderBatch(batch({ status: 'validating', cancelRequestedAt: 1_767_225_605_000 }));
  assert.equal(rendered.cancelling_at, 1_767_225_605);
  assert.equal(rendered.in_progress_at, null);
});
