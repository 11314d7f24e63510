import type { SuccessBody } from '../../../generated/operations.js';
import type { BatchRecord } from '../../batches/batch-types.js';
import type { OpenAIBatchFinish } from '../../batches/finish-openai-batches.js';

type Batch = SuccessBody<'retrieveBatch'>;

/** The OpenAI fields of a batch, kept in the runner's metadata column when it was created. */
export interface OpenAIBatchMetadata {
  endpoint: Batch['endpoint'];
  inputFileId: string;
  completionWindow: string;
  /** The client's `metadata`. */
  metadata: Record<string, string> | null;
  outputExpiresAfterSeconds?: number;
  /** Why the batch failed at creation (lines for another endpoint); absent for a batch that ran. */
  errors?: Array<{ code: string; line: number | null; message: string; param: string | null }>;
}

/**
 * A runner batch in OpenAI's `Batch` shape. The runner knows `validating` (its lines being stored), `in_progress`, `canceling` and `ended`; OpenAI's
 * statuses follow from them and from whether the output files are written (`finishedAt`):
 * ended without files is `finalizing` (`cancelling` if it was being cancelled), then `completed`,
 * `cancelled` or `expired`. A batch refused at creation is `failed`. Times are Unix seconds.
 */
export function renderBatch(batch: BatchRecord): Batch {
  const fields = batch.metadata as unknown as OpenAIBatchMetadata;
  const finish = batch.finish as OpenAIBatchFinish | null;
  const failed = fields.errors !== undefined;
  const status = statusOf(batch, failed);
  const ended = batch.counts.succeeded + batch.counts.errored + batch.counts.canceled + batch.counts.expired;
  return {
    id: batch.id,
    object: 'batch',
    endpoint: fields.endpoint,
    errors: failed ? { object: 'list', data: fields.errors ?? [] } : null,
    input_file_id: fields.inputFileId,
    completion_window: fields.completionWindow,
    status,
    output_file_id: finish?.outputFileId ?? null,
    error_file_id: finish?.errorFileId ?? null,
    created_at: seconds(batch.createdAt),
    in_progress_at: failed || batch.status === 'validating' ? null : seconds(batch.createdAt),
    expires_at: seconds(batch.expiresAt),
    finalizing_at: failed ? null : secondsOrNull(batch.endedAt),
    completed_at: status === 'completed' ? secondsOrNull(batch.finishedAt) : null,
    failed_at: failed ? seconds(batch.createdAt) : null,
    expired_at: status === 'expired' ? secondsOrNull(batch.finishedAt) : null,
    cancelling_at: secondsOrNull(batch.cancelRequestedAt),
    cancelled_at: status === 'cancelled' ? secondsOrNull(batch.finishedAt) : null,
    // Each ended line not answered 2xx is a line of the error file, so `failed` counts it.
    request_counts: { total: batch.lineCount, completed: batch.counts.succeeded, failed: ended - batch.counts.succeeded },
    ...(finish && { usage: finish.usage }),
    metadata: fields.metadata,
  };
}

function statusOf(batch: BatchRecord, failed: boolean): Batch['status'] {
  if (failed) return 'failed';
  // A cancel that came while the lines were being stored is kept, and the batch shows it at once (as OpenAI's does).
  if (batch.status === 'validating') return batch.cancelRequestedAt === null ? 'validating' : 'cancelling';
  if (batch.status === 'in_progress') return 'in_progress';
  if (batch.status === 'canceling' || (batch.finishedAt === null && batch.cancelRequestedAt !== null)) return 'cancelling';
  if (batch.finishedAt === null) return 'finalizing';
  if (batch.cancelRequestedAt !== null) return 'cancelled';
  return batch.counts.expired > 0 ? 'expired' : 'completed';
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function secondsOrNull(ms: number | null): number | null {
  return ms === null ? null : seconds(ms);
}
