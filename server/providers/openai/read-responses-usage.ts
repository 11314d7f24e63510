import type { Usage } from '../../core/internal-representation.js';
import { asRecord } from '../upstream/parse-json.js';

/** A Responses `usage` object (an upstream's, passed through) → internal usage, for the request log. */
export function readResponsesUsage(usage: unknown): Usage | undefined {
  const record = asRecord(usage);
  if (!record) return undefined;
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    inputTokens: count(record.input_tokens),
    cachedInputTokens: count(asRecord(record.input_tokens_details)?.cached_tokens),
    outputTokens: count(record.output_tokens),
    reasoningTokens: count(asRecord(record.output_tokens_details)?.reasoning_tokens),
  };
}
