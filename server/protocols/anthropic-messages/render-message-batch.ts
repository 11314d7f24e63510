import type { SuccessBody } from '../../../generated/operations.js';
import type { BatchRecord, LineResult } from '../../batches/batch-types.js';

type MessageBatch = SuccessBody<'retrieveMessageBatch'>;

/** A batch in Anthropic's MessageBatch shape; `results_url` points at this gateway once the batch has ended. */
export function renderMessageBatch(batch: BatchRecord, baseUrl: string): MessageBatch {
  return {
    id: batch.id,
    type: 'message_batch',
    // Only an OpenAI batch is ever `validating` (made from an input file); Anthropic's are stored whole at once.
    processing_status: batch.status === 'validating' ? 'in_progress' : batch.status,
    request_counts: batch.counts,
    ended_at: isoOrNull(batch.endedAt),
    created_at: new Date(batch.createdAt).toISOString(),
    expires_at: new Date(batch.expiresAt).toISOString(),
    archived_at: null,
    cancel_initiated_at: isoOrNull(batch.cancelRequestedAt),
    results_url: batch.status === 'ended' ? `${baseUrl}/v1/messages/batches/${encodeURIComponent(batch.id)}/results` : null,
  };
}

/**
 * One line of the results file: Anthropic's MessageBatchIndividualResponse. A line answered 2xx succeeded
 * with that message; any other answer is `errored` with the error body it got (Anthropic's error shape, as
 * the line went through `POST /v1/messages`); canceled and expired lines carry nothing.
 */
export function renderResultLine(line: LineResult): string {
  const result =
    line.outcome === 'succeeded'
      ? { type: 'succeeded', message: JSON.parse(line.response ?? 'null') as unknown }
      : line.outcome === 'errored'
        ? { type: 'errored', error: errorBodyOf(line.response) }
        : { type: line.outcome };
  return `${JSON.stringify({ custom_id: line.customId, result })}\n`;
}

/** The error body as the line's request got it; a body that is not Anthropic's error (it always should be) is wrapped in one. */
function errorBodyOf(response: string | null): unknown {
  try {
    const body = JSON.parse(response ?? '') as { type?: unknown; error?: unknown };
    if (body?.type === 'error' && body.error) return body;
  } catch {
    // Not JSON: wrapped below.
  }
  return { type: 'error', error: { type: 'api_error', message: 'The request failed without an error body.' } };
}

function isoOrNull(time: number | null): string | null {
  return time === null ? null : new Date(time).toISOString();
}
