import type { components } from '../../../generated/api.js';
import type { BatchRecord } from '../../batches/batch-types.js';
import type { OpenAIBatchFinish } from '../../batches/finish-openai-batches.js';

type BatchOverview = components['schemas']['BatchOverview'];

/**
 * A batch of any protocol in the console's neutral shape. Where its results are depends on its kind:
 * Anthropic's results route once it has ended, OpenAI's output and error files once the batch has written
 * them (their IDs kept in the batch's `finish` by batches/finish-openai-batches.ts).
 */
export function renderBatchOverview(batch: BatchRecord, baseUrl: string): BatchOverview {
  const anthropic = batch.protocol === 'anthropic';
  return {
    id: batch.id,
    object: 'batch_overview',
    kind: anthropic ? 'anthropic' : 'openai',
    account_id: batch.accountId,
    key_id: batch.keyId,
    status: batch.status,
    request_counts: { total: batch.lineCount, ...batch.counts },
    created_at: seconds(batch.createdAt),
    started_at: secondsOrNull(batch.startedAt),
    ended_at: secondsOrNull(batch.endedAt),
    expires_at: seconds(batch.expiresAt),
    cancel_requested_at: secondsOrNull(batch.cancelRequestedAt),
    results_url: anthropic && batch.status === 'ended' ? `${baseUrl}/v1/messages/batches/${encodeURIComponent(batch.id)}/results` : null,
    ...(!anthropic && openAIFiles(batch.finish as OpenAIBatchFinish | null)),
  };
}

function openAIFiles(finish: OpenAIBatchFinish | null): Pick<BatchOverview, 'output_file_id' | 'error_file_id'> {
  return { output_file_id: finish?.outputFileId ?? null, error_file_id: finish?.errorFileId ?? null };
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function secondsOrNull(ms: number | null): number | null {
  return ms === null ? null : seconds(ms);
}
