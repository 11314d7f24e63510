/**
 * Amazon Titan Text Embeddings through InvokeModel, for the fake Bedrock, from the model's parameters page
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html): V2
 * (`amazon.titan-embed-text-v2:0`) takes `inputText` (required), `dimensions` (1024, 512 or 256),
 * `normalize` and `embeddingTypes` (`float`, `binary`); V1 takes `inputText` only. The answer is
 * `{embedding, inputTextTokenCount}` (with `embeddingsByType` when types were asked).
 */
import { fakeVector } from './fake-embedding-vectors.js';
import { wordCount } from './fake-vertex-predict.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const v2Fields = new Set(['inputText', 'dimensions', 'normalize', 'embeddingTypes']);
const v2Dimensions = [1024, 512, 256];

/** The ValidationException message for the first problem of the body, or undefined when it is valid. */
export function validateTitanEmbedBody(body: unknown, modelId: string): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request body must be a JSON object.';
  const json = body as Json;
  if (!modelId.startsWith('amazon.titan-embed-text-')) return `The provided model identifier is invalid: ${modelId} is not a Titan Text Embeddings model.`;
  const allowed = modelId.startsWith('amazon.titan-embed-text-v1') ? new Set(['inputText']) : v2Fields;
  const extraneous = Object.keys(json).find((key) => !allowed.has(key));
  if (extraneous) return `Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`;
  if (typeof json.inputText !== 'string' || json.inputText === '') return 'Malformed input request: #/inputText: expected minLength: 1, please reformat your input and try again.';
  if (json.dimensions !== undefined && !v2Dimensions.includes(json.dimensions)) return `Malformed input request: #/dimensions: ${String(json.dimensions)} is not a valid enum value, please reformat your input and try again.`;
  if (json.normalize !== undefined && typeof json.normalize !== 'boolean') return 'Malformed input request: #/normalize: expected type: Boolean, please reformat your input and try again.';
  return undefined;
}

/**
 * Titan's answer to a valid call: {@link fakeVector} of the text, as long as asked (1024 by default), and
 * one token per word.
 */
export function titanEmbedAnswer(body: Json): { json: Record<string, unknown> } {
  return { json: { embedding: fakeVector(body.inputText as string, (body.dimensions as number | undefined) ?? 1024), inputTextTokenCount: wordCount(body.inputText as string) } };
}
