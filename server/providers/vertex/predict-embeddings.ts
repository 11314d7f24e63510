import { z } from 'zod';
import { assertOneVectorPerInput, embeddingTexts } from '../embedding-texts.js';
import { geminiTaskTypes } from '../gemini/embed-contents.js';
import type { EmbeddingProvider } from '../provider.js';
import { readWire } from '../upstream/read-wire.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { vertexModelPath } from './vertex-routes.js';

/** What is read of a text-embeddings `predict` answer: each prediction's vector and its token count. */
const predictResponseSchema = z.object({
  predictions: z.array(z.object({ embeddings: z.object({ values: z.array(z.number()), statistics: z.object({ token_count: z.number() }) }) })),
});

/**
 * Google's embedding models on Vertex through `…/publishers/google/models/<model>:predict`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api): an instance
 * per text (`content`, `task_type` with Gemini's names, `title`), `parameters.outputDimensionality`, and per prediction the
 * vector and its `statistics.token_count`. gemini-embedding-001 takes one instance per request (the same
 * reference), so its texts go one call each, in parallel; the text-embedding models take them all at once.
 */
export function predictEmbeddings(client: UpstreamClient, providerId: string, project: string, location: string): EmbeddingProvider {
  return {
    async embed(request, context) {
      const texts = embeddingTexts(request, 'vertex');
      const instance = (content: string) => ({
        content,
        ...(request.task && { task_type: geminiTaskTypes[request.task] }),
        ...(request.title !== undefined && { title: request.title }),
      });
      const parameters = request.dimensions !== undefined ? { parameters: { outputDimensionality: request.dimensions } } : {};
      const path = vertexModelPath(project, location, 'google', context.upstreamModel, 'predict');
      const batches = context.upstreamModel.startsWith('gemini-embedding') ? texts.map((text) => [text]) : [texts];
      const answers = await Promise.all(
        batches.map(async (batch) => {
          const reply = await client.exchangeJson(path, { instances: batch.map(instance), ...parameters }, context.signal);
          return readWire(predictResponseSchema, reply, { providerId, wire: 'vertex' }, 'predict answer').predictions;
        }),
      );
      const predictions = answers.flat();
      const vectors = predictions.map((prediction) => prediction.embeddings.values);
      assertOneVectorPerInput(vectors, texts.length, providerId);
      return { vectors, inputTokens: predictions.reduce((sum, prediction) => sum + prediction.embeddings.statistics.token_count, 0) };
    },
  };
}
