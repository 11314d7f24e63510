import type { EmbeddingInput } from '../../../core/embedding-types.js';
import { GatewayError } from '../../../core/gateway-error.js';
import { countTextTokens } from '../../../core/token-counter.js';
import type { EmbeddingProvider } from '../../provider.js';
import { builtinEmbeddingDimensions, embedText } from './embed-text.js';

/**
 * The built-in offline embedding model (`builtin/embed`): hashed character n-gram vectors (embed-text.ts),
 * good enough for retrieval examples without network or keys. Token-ID inputs are embedded as their IDs
 * written as words, so equal token sequences get equal vectors. Usage is the inputs' o200k_base tokens
 * (token-ID inputs: their count), like the built-in chat model's.
 *
 * @example
 * const { vectors } = await createBuiltinEmbeddings().embed({ model: 'builtin/embed', inputs: [{ type: 'text', text: 'hi' }] }, context);
 */
export function createBuiltinEmbeddings(): EmbeddingProvider {
  return {
    async embed(request, context) {
      context.signal.throwIfAborted();
      const dimensions = request.dimensions ?? builtinEmbeddingDimensions;
      if (dimensions > builtinEmbeddingDimensions) {
        throw new GatewayError('invalid_request', `The built-in embedding model makes vectors of at most ${builtinEmbeddingDimensions} dimensions; ask for ${builtinEmbeddingDimensions} or fewer.`, {
          param: 'dimensions',
          code: 'invalid_value',
        });
      }
      return {
        vectors: request.inputs.map((input) => embedText(textOf(input), dimensions)),
        inputTokens: request.inputs.reduce((sum, input) => sum + (input.type === 'text' ? countTextTokens(input.text) : input.tokens.length), 0),
      };
    },
  };
}

function textOf(input: EmbeddingInput): string {
  return input.type === 'text' ? input.text : input.tokens.join(' ');
}
