import type { components } from '../../../generated/api.js';

/** Gemini generateContent wire types as clients send and receive them, straight from the spec. */
type Schemas = components['schemas'];

export type GeminiGenerateContentRequest = Schemas['GeminiGenerateContentRequest'];
export type GeminiCountTokensRequest = Schemas['GeminiCountTokensRequest'];
export type GeminiContent = Schemas['GeminiContent'];
export type GeminiPart = Schemas['GeminiPart'];
export type GeminiTool = Schemas['GeminiTool'];
export type GeminiToolConfig = Schemas['GeminiToolConfig'];
export type GeminiGenerationConfig = Schemas['GeminiGenerationConfig'];
export type GeminiGenerateContentResponse = Schemas['GeminiGenerateContentResponse'];
export type GeminiCandidate = Schemas['GeminiCandidate'];
export type GeminiUsageMetadata = Schemas['GeminiUsageMetadata'];
export type GeminiModel = Schemas['GeminiModel'];
export type GeminiModelList = Schemas['GeminiModelList'];
export type GeminiEmbedContentRequest = Schemas['GeminiEmbedContentRequest'];
export type GeminiBatchEmbedContentsRequest = Schemas['GeminiBatchEmbedContentsRequest'];
export type GeminiEmbeddingTaskType = Schemas['GeminiEmbeddingTaskType'];
export type GeminiEmbedContentResponse = Schemas['GeminiEmbedContentResponse'];
export type GeminiBatchEmbedContentsResponse = Schemas['GeminiBatchEmbedContentsResponse'];
/**
 * One element of a streamGenerateContent answer (an SSE frame's data, or an element of the JSON array):
 * the spec's GenerateContentResponse, which is what its `application/json` form is an array of (the
 * spec has no stream event schema of its own). A failure once the stream has begun goes in-band as a
 * last chunk of Google's error body, which the GenAI SDK throws: typed by the spec's error schema.
 */
export type GeminiStreamData = GeminiGenerateContentResponse | Schemas['GeminiError'];
