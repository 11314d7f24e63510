/** OpenAI's Embeddings API (`POST /v1/embeddings`), through the one embeddings flow (core/embeddings-operation.ts). */
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { embeddingsProtocol } from './embeddings-protocol.js';
import { createEmbeddingHandler } from './handle-create-embedding.js';

export const openAIEmbeddingsDefinition = {
  ...embeddingsProtocol,
  operations: (deps) => ({ createEmbedding: createEmbeddingHandler(deps) }),
} satisfies ClientProtocolDefinition<'openai-embeddings'>;
