import { z } from 'zod';
import type { EmbeddingProvider } from '../provider.js';
import { assertOneVectorPerInput, embeddingTexts, estimateEmbeddingTokens } from '../embedding-texts.js';
import { readWire } from '../upstream/read-wire.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

/** What is read of a BatchEmbedContentsResponse (https://ai.google.dev/api/embeddings#v1beta.BatchEmbedContentsResponse). */
const batchEmbedResponseSchema = z.object({ embeddings: z.array(z.object({ values: z.array(z.number()) })) });

/** Gemini's task types, by the internal names (https://ai.google.dev/api/embeddings#tasktype). */
export const geminiTaskTypes = {
  retrieval_query: 'RETRIEVAL_QUERY',
  retrieval_document: 'RETRIEVAL_DOCUMENT',
  semantic_similarity: 'SEMANTIC_SIMILARITY',
  classification: 'CLASSIFICATION',
  clustering: 'CLUSTERING',
  question_answering: 'QUESTION_ANSWERING',
  fact_verification: 'FACT_VERIFICATION',
  code_retrieval_query: 'CODE_RETRIEVAL_QUERY',
} as const;

/**
 * Embeddings through the Gemini API's `:batchEmbedContents`
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents): one EmbedContentRequest per
 * input, each naming the model as the reference requires, with the task type, title and vector length.
 * The answer has no token counts, so the input is counted by the gateway (and marked as estimated).
 */
export function createGeminiEmbeddings(client: UpstreamClient, providerId: string): EmbeddingProvider {
  return {
    async embed(request, context) {
      const texts = embeddingTexts(request, 'gemini');
      const settings = {
        ...(request.task && { taskType: geminiTaskTypes[request.task] }),
        ...(request.title !== undefined && { title: request.title }),
        ...(request.dimensions !== undefined && { outputDimensionality: request.dimensions }),
      };
      const model = `models/${context.upstreamModel}`;
      const body = { requests: texts.map((text) => ({ model, content: { parts: [{ text }] }, ...settings })) };
      const path = `/v1beta/models/${encodeURIComponent(context.upstreamModel)}:batchEmbedContents`;
      const answer = readWire(batchEmbedResponseSchema, await client.exchangeJson(path, body, context.signal), { providerId, wire: 'gemini' }, 'batchEmbedContents answer');
      const vectors = answer.embeddings.map((embedding) => embedding.values);
      assertOneVectorPerInput(vectors, texts.length, providerId);
      return { vectors, inputTokens: estimateEmbeddingTokens(texts), estimated: true };
    },
  };
}
