import type { Principal } from '../../access/principal.js';
import type { RequestContext } from '../../core/request-context.js';
import { newUsageRecordId, type UsageRecord } from '../usage-record.js';
import type { MeteredEndpoint } from './metered-endpoint.js';
import type { Outcome } from './metered-request.js';

/** The status the ledger gives a client that left before its answer was complete (nginx's "client closed request"). */
export const clientLeftStatus = 499;

export interface UsageRowFacts {
  context: RequestContext;
  principal: Principal;
  endpoint: MeteredEndpoint;
  outcome: Outcome;
  /** The status the response was sent with. */
  statusCode: number;
  /** Whether the client got the whole answer; false when it left first (recorded as {@link clientLeftStatus}). */
  completed: boolean;
  /** When metering began for the request (Unix ms): the row's time, and the start of its latency. */
  startedAt: number;
}

/** The one ledger row of a model request, however it ended. */
export function usageRowOf({ context, principal, endpoint, outcome, statusCode, completed, startedAt }: UsageRowFacts): UsageRecord {
  return {
    id: newUsageRecordId(),
    created_at: startedAt,
    request_id: context.requestId,
    account_id: principal.account.id,
    key_id: principal.key.id,
    model: outcome.model,
    deployment: outcome.deployment,
    protocol: endpoint.protocol,
    endpoint: endpoint.endpoint,
    status: completed ? statusCode : clientLeftStatus,
    input_tokens: outcome.usage.inputTokens,
    cached_input_tokens: outcome.usage.cachedInputTokens,
    output_tokens: outcome.usage.outputTokens,
    reasoning_tokens: outcome.usage.reasoningTokens,
    cache_write_input_tokens: outcome.usage.cacheWriteInputTokens ?? 0,
    cache_write_1h_input_tokens: outcome.usage.cacheWrite1hInputTokens ?? 0,
    image_count: outcome.imageCount,
    latency_ms: Date.now() - startedAt,
    cost_usd: outcome.costUsd,
    price_tier_above_tokens: outcome.priced.priceTierAboveTokens,
    service_tier: outcome.priced.serviceTier,
    batch: outcome.priced.batch,
    estimated: outcome.usage.estimated === true,
    completed,
    batch_id: context.batchLine?.batchId ?? null,
  };
}
