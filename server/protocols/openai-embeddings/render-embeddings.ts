import type { EmbeddingResult } from '../../core/embedding-types.js';
import type { EmbeddingResponseBody } from './wire-types.js';

/**
 * The answer in OpenAI's shape: one `embedding` object per input, in order, each vector as numbers or,
 * for `encoding_format: base64`, as the base64 of its little-endian float32 values (what OpenAI sends,
 * and what its SDK asks for and decodes). `model` is the ID the client sent, as in the other answers.
 */
export function renderEmbeddings(result: EmbeddingResult, model: string, encoding: 'float' | 'base64'): EmbeddingResponseBody {
  return {
    object: 'list',
    data: result.vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encoding === 'base64' ? float32Base64(vector) : vector })),
    model,
    usage: { prompt_tokens: result.inputTokens, total_tokens: result.inputTokens },
  };
}

/** The vector as float32 bytes, little-endian whatever the machine's order, in base64. */
export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
