// OpenAI's embeddings endpoint as a fake upstream answers it, written from OpenAI's public API reference
// (https://platform.openai.com/docs/api-reference/embeddings/create and …/embeddings/object): `input` as a
// string, strings, a token array or token arrays; `encoding_format` float (the default) or base64 (the
// little-endian float32 bytes, as the openai SDK decodes them); `dimensions`; the answer
// `{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage: {prompt_tokens, total_tokens}}`.
// The fake upstream (fake-upstream.ts, as `{ respond }`) and the fake Azure resource (fake-azure-openai.ts) share it.
import type { FakeReply, RecordedRequest } from './fake-upstream.js';

/** The fake model's vector length when `dimensions` does not say: short, so tests can read vectors whole. */
export const fakeEmbeddingDimensions = 8;

type Input = string | number[];

/**
 * The fake model's vector for one input: a function of its text (or token IDs) and position in the
 * vector only, so a test computes what the upstream answered without asking it.
 */
export function fakeEmbedding(input: Input, dimensions = fakeEmbeddingDimensions): number[] {
  const seed = [...(typeof input === 'string' ? input : input.join(','))].reduce((sum, character) => (sum * 31 + character.codePointAt(0)!) % 1_000_003, 7);
  return Array.from({ length: dimensions }, (_, index) => (((seed * (index + 1)) % 2001) - 1000) / 1000);
}

/** Tokens the fake counts: words of a text, IDs of a token array. */
export function fakeTokenCount(input: Input): number {
  return typeof input === 'string' ? input.split(/\s+/).filter(Boolean).length : input.length;
}

/** OpenAI's four spellings of `input` as the list of inputs. */
export function inputsOf(input: unknown): Input[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((item) => typeof item === 'number')) return [input as number[]];
  return input as Input[];
}

/** The answer to an embeddings request body, as OpenAI gives it. */
export function openAIEmbeddingsAnswer(body: Record<string, any>, model = String(body.model)): Record<string, unknown> {
  const inputs = inputsOf(body.input);
  const prompt = inputs.reduce((sum, input) => sum + fakeTokenCount(input), 0);
  return {
    object: 'list',
    data: inputs.map((input, index) => {
      const vector = fakeEmbedding(input, body.dimensions);
      return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? float32Base64(vector) : vector };
    }),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
}

/** A fake-upstream reply that answers whatever embeddings request comes (`upstream.enqueue(embeddingsReply())`). */
export function embeddingsReply(answeredModel = 'text-embedding-3-small'): FakeReply {
  return { respond: (request: RecordedRequest) => ({ json: openAIEmbeddingsAnswer(request.json as Record<string, any>, answeredModel) }) };
}

function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
