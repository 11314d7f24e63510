import { createHash } from 'node:crypto';
import type { LineResult } from './batch-types.js';

/**
 * One line of an OpenAI batch's output or error file (OpenAI's `BatchRequestOutput`,
 * https://platform.openai.com/docs/api-reference/batch/request-output): a request that was answered has its
 * answer in `response` (status, request ID and body, 2xx or not) and `error: null`; a request that never ran
 * (cancelled, expired) has `response: null` and an `error` with OpenAI's codes.
 */
export function renderOpenAIBatchLine(batchId: string, line: LineResult): string {
  const answered = line.outcome === 'succeeded' || line.outcome === 'errored';
  return JSON.stringify({
    id: batchRequestId(batchId, line.position),
    custom_id: line.customId,
    response: answered ? { status_code: line.statusCode, request_id: line.requestId, body: parsedBody(line.response) } : null,
    error: answered ? null : notRun[line.outcome as 'canceled' | 'expired'],
  });
}

/** Which file a line goes to: the output file holds the 2xx answers, the error file all the rest. */
export function isOutputLine(line: LineResult): boolean {
  return line.outcome === 'succeeded';
}

const notRun = {
  canceled: { code: 'batch_cancelled', message: 'This request was not run: the batch was cancelled first.' },
  // OpenAI's wording for a request the completion window ran out on.
  expired: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
} as const;

/** `batch_req_` and 32 hex digits, the same for a line whoever writes the file (a rewrite names it alike). */
function batchRequestId(batchId: string, position: number): string {
  return `batch_req_${createHash('sha256').update(`${batchId}/${position}`).digest('hex').slice(0, 32)}`;
}

/** The answer's body as JSON; a body that is not JSON (it always should be) is kept as text. */
function parsedBody(response: string | null): unknown {
  if (response === null) return null;
  try {
    return JSON.parse(response);
  } catch {
    return response;
  }
}
