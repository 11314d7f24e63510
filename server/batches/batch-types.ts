/**
 * The batch runner's vocabulary, shared by every batch API the gateway serves (Anthropic's Message Batches;
 * OpenAI's Batch API): a batch belongs to an account and runs under the key that made it; each line is
 * one request (`endpoint` and JSON `body`) with the client's `custom_id`, and ends with one outcome.
 */

/**
 * `validating` while its lines are being stored (a batch made from an input file; the runner claims none of
 * them yet), `in_progress` until every line has an outcome (`ended`); `canceling` from a cancel until then.
 */
export type BatchStatus = 'validating' | 'in_progress' | 'canceling' | 'ended';

/** How a line ended. `succeeded` and `errored` carry the answer the line's request got; the others none. */
export type LineOutcome = 'succeeded' | 'errored' | 'canceled' | 'expired';

export interface BatchCounts {
  /** Lines without an outcome yet, running or waiting. */
  processing: number;
  succeeded: number;
  errored: number;
  canceled: number;
  expired: number;
}

export interface NewBatch {
  id: string;
  accountId: string;
  keyId: string;
  /** Whose API made it and shows it: `anthropic` or `openai`. */
  protocol: string;
  /** The protocol's own fields of the batch, kept as JSON (OpenAI's metadata, input file, …). */
  metadata?: Record<string, unknown>;
  lines: ReadonlyArray<NewBatchLine>;
  /** The upstream batches its lines are forwarded to (models with `batch: upstream`; upstream/), stored with it. */
  upstreamBatches?: ReadonlyArray<NewUpstreamBatch>;
  /** Unix ms. */
  createdAt: number;
  expiresAt: number;
  /** A batch made ended, with nothing to run (OpenAI's `failed` batch: its input named another endpoint). */
  ended?: boolean;
}

/** A line as a new batch stores it. */
export interface NewBatchLine {
  customId: string;
  endpoint: string;
  body: string;
  /** The line is forwarded to that upstream batch (one of the batch's upstream batches), not run by the gateway. */
  upstreamBatchId?: string;
}

/** An upstream batch as planned at submission: the intent, recorded before anything is sent upstream. */
export interface NewUpstreamBatch {
  /** Ours, `ubatch_…`. */
  id: string;
  /** The gateway's model ID, and the deployment its lines go to. */
  model: string;
  providerId: string;
  upstreamModel: string;
  endpoint: string;
}

export interface BatchRecord {
  id: string;
  accountId: string;
  keyId: string;
  protocol: string;
  status: BatchStatus;
  metadata: Record<string, unknown>;
  lineCount: number;
  counts: BatchCounts;
  /** Unix ms, as every time below. */
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  expiresAt: number;
  cancelRequestedAt: number | null;
  /** When the protocol's work after the end was recorded (OpenAI: its output files written); null until then. */
  finishedAt: number | null;
  /** What that work produced, as the protocol stored it (JSON-parsed); null until then. */
  finish: Record<string, unknown> | null;
}

/** A line an instance has claimed, with what it needs to run it. */
export interface ClaimedLine {
  batchId: string;
  position: number;
  customId: string;
  endpoint: string;
  body: string;
  /** Claims of this line so far, this one included. */
  attempts: number;
  accountId: string;
  keyId: string;
  protocol: string;
}

/** A line as the results show it. */
export interface LineResult {
  position: number;
  customId: string;
  outcome: LineOutcome;
  /** The status the line's request was answered with; null for canceled and expired lines. */
  statusCode: number | null;
  requestId: string | null;
  /** The answer's body (JSON text): the protocol's response, or its error body. */
  response: string | null;
}
