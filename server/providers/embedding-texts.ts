import type { EmbeddingRequest } from '../core/embedding-types.js';
import { GatewayError } from '../core/gateway-error.js';
import { countTextTokens } from '../core/token-counter.js';

/**
 * The texts of an embedding request, for an upstream that takes text only (Gemini, Vertex, Bedrock). Token
 * IDs are an OpenAI client's encoding with OpenAI's tokenizer; decoding them with ours could give another
 * text than the client meant, so they are refused rather than guessed at.
 */
export function embeddingTexts(request: EmbeddingRequest, upstreamType: string): string[] {
  return request.inputs.map((input, index) => {
    if (input.type === 'text') return input.text;
    throw new GatewayError('invalid_request', `input[${index}] is token IDs, which a ${upstreamType} upstream cannot embed: send the text instead.`, {
      param: 'input',
      code: 'unsupported_input',
    });
  });
}

/** The gateway's count of the texts' tokens (o200k_base), for upstreams that report none. */
export function estimateEmbeddingTokens(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + countTextTokens(text), 0);
}

/** An answer with another number of vectors than inputs cannot be matched to them: the upstream's failure. */
export function assertOneVectorPerInput(vectors: readonly number[][], inputs: number, providerId: string): void {
  if (vectors.length === inputs) return;
  throw new GatewayError('upstream', `The upstream provider '${providerId}' returned ${vectors.length} embeddings for ${inputs} inputs.`, { upstream: { providerId } });
}
