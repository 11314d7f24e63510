import type { ModelPricing } from '../../config/config-schema.js';
import type { Usage } from '../../core/internal-representation.js';
import { priceUsage } from '../../usage/cost.js';
import { newUsageRecordId, type UsageRecord } from '../../usage/usage-record.js';
import type { ClaimedUpstreamBatch } from './upstream-batch-store.js';

/** What the ledger calls each forwarded endpoint's protocol, as the gateway's own call of it would. */
const ledgerProtocols: Record<string, string> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/embeddings': 'openai-embeddings',
  '/v1/messages': 'anthropic-messages',
};

const noUsage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

/**
 * The ledger row of a line an upstream batch answered: one per line, as a line the gateway runs has, with the
 * batch's ID, the upstream's own usage and a cost at the batch tier (the price's `batch_multiplier`; an
 * upstream that reports no tier for batch work is priced as `batch` all the same, since it ran in a batch).
 */
export function forwardedLineRow(upstream: ClaimedUpstreamBatch, answer: { statusCode: number; requestId: string; usage?: Usage }, pricing: ModelPricing | undefined, now: number): UsageRecord {
  const usage: Usage = { ...(answer.usage ?? noUsage), serviceTier: 'batch' };
  const priced = priceUsage(usage, pricing);
  return {
    id: newUsageRecordId(),
    created_at: now,
    request_id: answer.requestId,
    account_id: upstream.accountId,
    key_id: upstream.keyId,
    model: upstream.model,
    deployment: `${upstream.providerId}/${upstream.upstreamModel}`,
    protocol: ledgerProtocols[upstream.endpoint] ?? upstream.protocol,
    endpoint: `POST ${upstream.endpoint}`,
    status: answer.statusCode,
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedInputTokens,
    output_tokens: usage.outputTokens,
    reasoning_tokens: usage.reasoningTokens,
    cache_write_input_tokens: usage.cacheWriteInputTokens ?? 0,
    cache_write_1h_input_tokens: usage.cacheWrite1hInputTokens ?? 0,
    image_count: 0,
    // The upstream ran it on its own schedule within the batch's window: there is no latency of ours to keep.
    latency_ms: 0,
    cost_usd: priced.costUsd,
    price_tier_above_tokens: priced.priceTierAboveTokens,
    service_tier: priced.serviceTier,
    batch: priced.batch,
    estimated: false,
    completed: true,
    batch_id: upstream.batchId,
  };
}
