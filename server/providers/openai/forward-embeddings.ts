import type { EmbeddingInput, EmbeddingResult } from '../../core/embedding-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { countTextTokens } from '../../core/token-counter.js';
import type { EmbeddingProvider } from '../provider.js';
import { readWire } from '../upstream/read-wire.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { embeddingsAnswerSchema, type EmbeddingsAnswer } from './embeddings-schema.js';
import { openAIPath, type OpenAIPath } from './paths.js';

/**
 * OpenAI's `/embeddings` (https://platform.openai.com/docs/api-reference/embeddings/create), for OpenAI,
 * its imitations and Azure (through `path`). Texts go as strings and token IDs as token arrays, as the
 * client sent them; vectors are asked for as floats whatever the client wants (the gateway encodes them
 * for its client), and `dimensions` is passed on for the models that can shorten theirs.
 */
export function createOpenAIEmbeddings(client: UpstreamClient, providerId: string, path: OpenAIPath = openAIPath): EmbeddingProvider {
  return {
    async embed(request, context) {
      const body = {
        model: context.upstreamModel,
        input: request.inputs.map((input) => (input.type === 'text' ? input.text : input.tokens)),
        encoding_format: 'float',
        ...(request.dimensions !== undefined && { dimensions: request.dimensions }),
      };
      const json = await client.exchangeJson(path('/embeddings', context.upstreamModel), body, context.signal);
      return readEmbeddings(readWire(embeddingsAnswerSchema, json, { providerId, wire: 'openai' }, 'embeddings answer'), request.inputs, providerId);
    },
  };
}

/** The vectors in the inputs' order (by `index`, where the upstream gives it), one per input or it is no answer. */
function readEmbeddings(answer: EmbeddingsAnswer, inputs: readonly EmbeddingInput[], providerId: string): EmbeddingResult {
  const vectors: number[][] = [];
  answer.data.forEach((item, position) => {
    vectors[item.index ?? position] = typeof item.embedding === 'string' ? float32Values(item.embedding) : item.embedding;
  });
  if (vectors.length !== inputs.length || vectors.some((vector) => vector === undefined)) {
    throw new GatewayError('upstream', `The upstream provider '${providerId}' (openai) answered ${answer.data.length} embeddings for ${inputs.length} inputs.`, {
      upstream: { providerId },
    });
  }
  return {
    vectors,
    // Servers that report no usage (some local ones) are counted by the gateway.
    inputTokens: answer.usage?.prompt_tokens ?? estimateInputTokens(inputs),
    ...(answer.model && { upstreamModel: answer.model }),
  };
}

function float32Values(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  return Array.from({ length: Math.floor(bytes.length / 4) }, (_, index) => bytes.readFloatLE(index * 4));
}

function estimateInputTokens(inputs: readonly EmbeddingInput[]): number {
  return inputs.reduce((sum, input) => sum + (input.type === 'text' ? countTextTokens(input.text) : input.tokens.length), 0);
}
