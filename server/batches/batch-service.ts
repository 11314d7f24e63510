import { randomString } from '../core/random-string.js';
import type { BatchStore } from './batch-store.js';
import type { OpenAIBatchFinisher } from './finish-openai-batches.js';
import type { ForwardingPlan } from './upstream/plan-forwarding.js';
import type { AccessPolicy } from '../access/access-policy.js';

/** What the protocols' batch routes need: the store, a nudge for the runner, and the limits a new batch gets. */
export interface BatchService {
  store: BatchStore;
  /** Tells this instance's runner a batch was made, so its lines start now rather than at the next poll. */
  wake(): void;
  /** `batches.max_requests`. */
  maxRequests: number;
  /** `batches.expires_after_hours` in ms. */
  expiresAfterMs: number;
  /** Writes an ended OpenAI batch's output and error files (once, whichever instance gets there first). */
  openAIFinisher: OpenAIBatchFinisher;
  /** Plans which lines of one batch go to an upstream's own batch API (models with `batch: upstream`; upstream/plan-forwarding.ts). */
  forwardingPlanner(protocol: string, access: AccessPolicy): (lines: ReadonlyArray<{ customId: string; endpoint: string; body: string }>) => ForwardingPlan;
  /** After a cancel: the batch's upstream batches are told at once, not at their next poll. */
  forwardCancel(batchId: string): Promise<void>;
}

/** A new batch ID with the protocol's prefix (`msgbatch_` for Anthropic, `batch_` for OpenAI) and 96 random bits. */
export function newBatchId(prefix: string): string {
  return `${prefix}${randomString(12)}`;
}
