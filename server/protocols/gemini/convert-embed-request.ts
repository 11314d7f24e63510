import type { EmbeddingRequest, EmbeddingTask } from '../../core/embedding-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GeminiEmbedContentRequest, GeminiEmbeddingTaskType } from './wire-types.js';

/** Gemini's task types as the internal ones; `TASK_TYPE_UNSPECIFIED` says nothing. */
const tasks: Record<GeminiEmbeddingTaskType, EmbeddingTask | undefined> = {
  TASK_TYPE_UNSPECIFIED: undefined,
  RETRIEVAL_QUERY: 'retrieval_query',
  RETRIEVAL_DOCUMENT: 'retrieval_document',
  SEMANTIC_SIMILARITY: 'semantic_similarity',
  CLASSIFICATION: 'classification',
  CLUSTERING: 'clustering',
  QUESTION_ANSWERING: 'question_answering',
  FACT_VERIFICATION: 'fact_verification',
  CODE_RETRIEVAL_QUERY: 'code_retrieval_query',
};

/** The settings of a request that apply to the whole internal request, so every request of a batch must agree on them. */
const sharedSettings = ['taskType', 'title', 'outputDimensionality'] as const;

/**
 * Gemini embed requests (one for `:embedContent`, each of a batch for `:batchEmbedContents`) as one
 * internal EmbeddingRequest: one text input per request, its text parts joined with newlines. Only text
 * can be embedded here: a part of another kind is refused rather than silently left out of the vector.
 * Field names are camelCase: the front door renamed snake_case ones (http/one-spelling-per-field.ts).
 * `pathModel` is the model the path names; a request's own `model`, when given, must name it too, as
 * Google requires in a batch. In a batch, errors name the request's field (`requests[2].model`).
 *
 * @example convertEmbedRequests([{ content: { parts: [{ text: 'hi' }] }, taskType: 'RETRIEVAL_QUERY' }], 'builtin/embed')
 */
export function convertEmbedRequests(requests: readonly GeminiEmbedContentRequest[], pathModel: string, batch: boolean): EmbeddingRequest {
  const where = (index: number) => (batch ? `requests[${index}].` : '');
  requests.forEach((request, index) => {
    if (request.model !== undefined && request.model !== pathModel && request.model !== `models/${pathModel}`) {
      throw new GatewayError('invalid_request', `${where(index)}model '${request.model}' is not the model of the path ('models/${pathModel}').`, { param: `${where(index)}model` });
    }
    for (const setting of sharedSettings) {
      if (request[setting] !== requests[0]![setting]) {
        throw new GatewayError('invalid_request', `${where(index)}${setting} differs from requests[0].${setting}: every request of a batch must ask for the same ${setting}.`, {
          param: `${where(index)}${setting}`,
        });
      }
    }
  });
  const first = requests[0]!;
  return {
    model: pathModel,
    inputs: requests.map((request, index) => ({ type: 'text' as const, text: textOf(request, where(index)) })),
    ...(first.outputDimensionality !== undefined && { dimensions: first.outputDimensionality }),
    ...(first.taskType !== undefined && tasks[first.taskType] !== undefined && { task: tasks[first.taskType] }),
    ...(first.title !== undefined && { title: first.title }),
  };
}

function textOf(request: GeminiEmbedContentRequest, where: string): string {
  const parts = request.content.parts ?? [];
  const other = parts.findIndex((part) => typeof part.text !== 'string');
  if (other !== -1) {
    throw new GatewayError('invalid_request', `${where}content.parts[${other}] is not text: only text parts can be embedded.`, { param: `${where}content.parts[${other}]` });
  }
  if (parts.length === 0) throw new GatewayError('invalid_request', `${where}content has no parts: give the text to embed.`, { param: `${where}content.parts` });
  return parts.map((part) => part.text).join('\n');
}
