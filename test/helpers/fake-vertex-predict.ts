// Vertex AI's text embeddings API (`…/publishers/google/models/{model}:predict`) for the fake Vertex, from
// the reference (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api):
// `instances: [{content, task_type?, title?}]`, `parameters: {autoTruncate?, outputDimensionality?}`, a
// title only with task_type RETRIEVAL_DOCUMENT, one instance per request for gemini-embedding-001 and at
// most 250 for the others. Answers: `predictions[].embeddings.{values, statistics.{token_count, truncated}}`.
import type { FakeReply } from './fake-upstream.js';
import { fakeVector } from './fake-embedding-vectors.js';

/** text-embedding-005's default vector length (the reference's model table). */
export const vertexDefaultDimensions = 768;
const taskTypes = new Set(['RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION', 'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY']);
const instanceFields = new Set(['content', 'task_type', 'title']);
const parameterFields = new Set(['autoTruncate', 'outputDimensionality']);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Why Vertex would refuse this predict body for this model, or undefined. */
export function predictProblem(body: Json, model: string): string | undefined {
  const unknown = Object.keys(body).find((field) => field !== 'instances' && field !== 'parameters');
  if (unknown) return `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`;
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length === 0) return 'instances is required.';
  const most = model.startsWith('gemini-embedding') ? 1 : 250;
  if (instances.length > most) return `Unable to submit request because ${model} supports at most ${most} instance(s) per request; got ${instances.length}.`;
  for (const [index, instance] of (instances as Json[]).entries()) {
    const stray = Object.keys(instance ?? {}).find((field) => !instanceFields.has(field));
    if (stray) return `instances[${index}]: unknown field ${stray}.`;
    if (typeof instance.content !== 'string') return `instances[${index}].content must be a string.`;
    if (instance.task_type !== undefined && !taskTypes.has(instance.task_type)) return `instances[${index}].task_type: unsupported task type ${String(instance.task_type)}.`;
    if (instance.title !== undefined && instance.task_type !== 'RETRIEVAL_DOCUMENT') return `instances[${index}].title is only valid with task_type RETRIEVAL_DOCUMENT.`;
  }
  if (body.parameters !== undefined) {
    const stray = Object.keys(body.parameters).find((field) => !parameterFields.has(field));
    if (stray) return `parameters: unknown field ${stray}.`;
    const dimensions = body.parameters.outputDimensionality;
    if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) return 'parameters.outputDimensionality must be a positive integer.';
  }
  return undefined;
}

/**
 * The answer to a predict call that passed the fake's checks: one prediction per instance, its vector
 * {@link fakeVector} of the content, and a token count of one per word.
 *
 * @example vertex.upstream.enqueue(vertexPredictReply());
 */
export function vertexPredictReply(): FakeReply {
  return {
    respond(request) {
      const { instances, parameters } = request.json as { instances: Array<{ content: string }>; parameters?: { outputDimensionality?: number } };
      const dimensions = parameters?.outputDimensionality ?? vertexDefaultDimensions;
      const predictions = instances.map(({ content }) => ({
        embeddings: { values: fakeVector(content, dimensions), statistics: { token_count: wordCount(content), truncated: false } },
      }));
      return { json: { predictions, metadata: { billableCharacterCount: instances.reduce((sum, { content }) => sum + content.length, 0) } } };
    },
  };
}

/** The fake's token count: one per word. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
