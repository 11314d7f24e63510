import { z } from 'zod';
import { assertOneVectorPerInput, embeddingTexts } from '../embedding-texts.js';
import type { EmbeddingProvider } from '../provider.js';
import { readWire } from '../upstream/read-wire.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { BedrockSigner } from './sign-request.js';

/** What is read of a Titan Text Embeddings answer: the vector and the tokens of its input. */
const titanResponseSchema = z.object({ embedding: z.array(z.number()), inputTextTokenCount: z.number() });

/** The InvokeModel path of a model; an ARN's slashes and colons escaped, as for Converse. */
export function invokeModelPath(upstreamModel: string): string {
  return `/model/${encodeURIComponent(upstreamModel)}/invoke`;
}

/**
 * Amazon Titan Text Embeddings V2 through InvokeModel
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html): Titan
 * embeds one text per call, so each input is its own signed call, in parallel, with `dimensions` (256,
 * 512 or 1024) and `normalize: true` (unit vectors, as OpenAI's and Gemini's are). Task types and titles
 * have no Titan equivalent and are not sent.
 */
export function titanEmbeddings(client: UpstreamClient, providerId: string, baseUrl: string, sign: BedrockSigner): EmbeddingProvider {
  return {
    async embed(request, context) {
      const texts = embeddingTexts(request, 'bedrock');
      const path = invokeModelPath(context.upstreamModel);
      const answers = await Promise.all(
        texts.map(async (inputText) => {
          const body = { inputText, ...(request.dimensions !== undefined && { dimensions: request.dimensions }), normalize: true };
          // Signed over the exact text exchangeJson sends (JSON.stringify is deterministic for the same object).
          const headers = await sign(new URL(`${baseUrl}${path}`), JSON.stringify(body), { 'content-type': 'application/json', accept: 'application/json' });
          return readWire(titanResponseSchema, await client.exchangeJson(path, body, context.signal, headers), { providerId, wire: 'bedrock' }, 'InvokeModel answer');
        }),
      );
      const vectors = answers.map((answer) => answer.embedding);
      assertOneVectorPerInput(vectors, texts.length, providerId);
      return { vectors, inputTokens: answers.reduce((sum, answer) => sum + answer.inputTextTokenCount, 0) };
    },
  };
}
