import type { components } from '../../../generated/api.js';

/** OpenAI's embeddings request and answer, as the contract declares them. */
export type EmbeddingRequestBody = components['schemas']['CreateEmbeddingRequest'];
export type EmbeddingResponseBody = components['schemas']['CreateEmbeddingResponse'];
