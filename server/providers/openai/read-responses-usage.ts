import type { Usage } from '../../core/internal-representation.js';
import { asRecord } from '../upstream/parse-json.js';

/**
 * A Responses response object's `usage` (an upstream's, passed through) → internal usage, for the ledger,
 * with the response's `service_tier` (the tier that served it, which is the one billed).
 */
export function readResponsesUsage(response: unknown): Usage | undefined {
  const record = asRecord(asRecord(response)?.usage);
  if (!record) return undefined;
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const serviceTier = asRecord(response)?.service_tier;
  return {
    inputTokens: count(record.input_tokens),
    cachedInputTokens: count(asRecord(record.input_tokens_details)?.cached_tokens),
    outputTokens: count(record.output_tokens),
    reasoningTokens: count(asRecord(record.output_tokens_details)?.reasoning_tokens),
    ...(typeof serviceTier === 'string' && serviceTier !== '' && { serviceTier }),
  };
}
