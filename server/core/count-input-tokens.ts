import type { RouteTarget } from './route-target.js';
import { countRequestTokens } from './token-counter.js';
import type { ModelRequest } from './internal-representation.js';

export interface InputTokenCount {
  inputTokens: number;
  /** False when the upstream counted; true for the gateway's own o200k_base estimate. */
  estimated: boolean;
}

/**
 * The input tokens a request would cost on the target: the upstream's own count where its provider can
 * ask for one, an honest estimate (core/token-counter.ts) where it cannot. Used by Anthropic's
 * `count_tokens` and Gemini's `countTokens` whatever upstream serves the model.
 */
export async function countInputTokens(target: RouteTarget, request: ModelRequest, signal: AbortSignal): Promise<InputTokenCount> {
  const provider = target.deployment.provider;
  if (!provider.countTokens) return { inputTokens: countRequestTokens(request), estimated: true };
  const inputTokens = await provider.countTokens({ ...request, model: target.model.id }, { upstreamModel: target.deployment.upstreamModel, signal });
  return { inputTokens, estimated: false };
}
