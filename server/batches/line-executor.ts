import type { UsageRecord } from '../usage/usage-record.js';
import type { ClaimedLine } from './batch-types.js';

/** What a line's request was answered with. */
export interface LineAnswer {
  status: number;
  /** The answer's body as sent: the protocol's response, or its error body. */
  body: string;
  /** The response's `x-request-id`. */
  requestId: string | null;
  /** Seconds, from a `retry-after` header: set when the refusal is one to wait out (a limit, an overloaded store). */
  retryAfterSeconds?: number;
  /** The request's ledger row (with the batch's ID), when metering kept one: a request refused before it (401) has none. */
  row?: UsageRecord;
  /**
   * The row of an admitted request that metering had not kept by the time the answer was read (a slow close
   * under load): the runner writes it when it comes, so the execution is never left out of the ledger.
   */
  lateRow?: Promise<UsageRecord>;
}

/**
 * Runs one line as the same request from a client would run: the wiring (app.ts) sends it through the
 * gateway's own front door, authenticated as the key that made the batch (http/batch-lines/). The runner
 * knows nothing of HTTP; a batch API of another protocol needs no executor of its own, only its lines'
 * endpoints and bodies.
 */
export interface LineExecutor {
  execute(line: ClaimedLine): Promise<LineAnswer>;
  /** The error body, in the line's protocol's shape, of a line the runner ends itself (interrupted too often). */
  errorBody(line: ClaimedLine, message: string): { status: number; body: string };
}
