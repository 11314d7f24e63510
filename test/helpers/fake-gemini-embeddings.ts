// The Gemini API's `models.batchEmbedContents` for the scripted fake upstream (fake-upstream.ts), as strict
// as the reference (https://ai.google.dev/api/embeddings, see test/fixtures/upstream/README.md): the path,
// every request naming the path's model, text content, known task types, a positive outputDimensionality.
// Refusals in Google's error shape; answers carry one vector per request and, like Google's, no usage.
import type { FakeReply, RecordedRequest } from './fake-upstream.js';
import { fakeVector } from './fake-embedding-vectors.js';

/** gemini-embedding-001's default vector length (https://ai.google.dev/gemini-api/docs/embeddings). */
export const geminiDefaultDimensions = 3072;
const taskTypes = new Set(['TASK_TYPE_UNSPECIFIED', 'RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION', 'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY']);
const requestFields = new Set(['model', 'content', 'taskType', 'title', 'outputDimensionality']);

const invalid = (message: string): FakeReply => ({ status: 400, json: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } });

/** Why Google would refuse this batchEmbedContents call, or undefined. */
function problem(request: RecordedRequest): string | undefined {
  const path = /^\/v1beta\/models\/([^/:]+):batchEmbedContents$/.exec(request.url);
  if (!path) return `Unexpected path ${request.url}.`;
  const model = `models/${decodeURIComponent(path[1]!)}`;
  const body = request.json as { requests?: unknown } | undefined;
  if (!Array.isArray(body?.requests) || body.requests.length === 0) return '* BatchEmbedContentsRequest.requests: requests is required.';
  for (const [index, item] of (body.requests as Array<Record<string, any>>).entries()) { // eslint-disable-line @typescript-eslint/no-explicit-any
    const unknown = Object.keys(item).find((field) => !requestFields.has(field));
    if (unknown) return `Invalid JSON payload received. Unknown name "${unknown}" at 'requests[${index}]': Cannot find field.`;
    if (item.model !== model) return `* BatchEmbedContentsRequest.requests[${index}].model: unexpected model name format`;
    const parts = item.content?.parts;
    if (!Array.isArray(parts) || parts.length === 0 || parts.some((part: Record<string, unknown>) => typeof part.text !== 'string')) return `* BatchEmbedContentsRequest.requests[${index}].content.parts: contents are required.`;
    if (item.taskType !== undefined && !taskTypes.has(item.taskType)) return `Invalid value at 'requests[${index}].task_type' (type.googleapis.com/google.ai.generativelanguage.v1beta.TaskType), "${item.taskType}"`;
    if (item.outputDimensionality !== undefined && !(Number.isInteger(item.outputDimensionality) && item.outputDimensionality > 0)) return `* BatchEmbedContentsRequest.requests[${index}].output_dimensionality: must be positive.`;
  }
  return undefined;
}

/**
 * A reply to one batchEmbedContents call: `{embeddings: [{values}]}`, each vector {@link fakeVector} of
 * the request's text parts joined with newlines, as long as `outputDimensionality` asks (else the default).
 *
 * @example upstream.enqueue(geminiBatchEmbedReply());
 */
export function geminiBatchEmbedReply(): FakeReply {
  return {
    respond(request) {
      const refused = problem(request);
      if (refused) return invalid(refused);
      const { requests } = request.json as { requests: Array<{ content: { parts: Array<{ text: string }> }; outputDimensionality?: number }> };
      const embeddings = requests.map((item) => ({
        values: fakeVector(item.content.parts.map((part) => part.text).join('\n'), item.outputDimensionality ?? geminiDefaultDimensions),
      }));
      return { json: { embeddings } };
    },
  };
}
