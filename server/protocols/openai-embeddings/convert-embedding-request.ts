import type { EmbeddingInput, EmbeddingRequest } from '../../core/embedding-types.js';
import type { EmbeddingRequestBody } from './wire-types.js';

/**
 * OpenAI's `input` in its four spellings (a string, strings, one token array, token arrays) as the
 * internal list of inputs. The contract has already refused empty inputs and more than 2048 of them.
 *
 * @example
 * convertEmbeddingRequest({ model: 'builtin/embed', input: [[1, 2], [3]] }).inputs
 * // [{ type: 'tokens', tokens: [1, 2] }, { type: 'tokens', tokens: [3] }]
 */
export function convertEmbeddingRequest(body: EmbeddingRequestBody): EmbeddingRequest {
  return { model: body.model, inputs: inputsOf(body.input), ...(body.dimensions !== undefined && { dimensions: body.dimensions }) };
}

function inputsOf(input: EmbeddingRequestBody['input']): EmbeddingInput[] {
  if (typeof input === 'string') return [{ type: 'text', text: input }];
  if (input.every((item): item is number => typeof item === 'number')) return [{ type: 'tokens', tokens: input }];
  return input.map((item) => (typeof item === 'string' ? { type: 'text', text: item } : { type: 'tokens', tokens: item as number[] }));
}
