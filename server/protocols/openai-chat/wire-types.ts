import type { components } from '../../../generated/api.js';

/** Chat Completions wire types, straight from the spec. */
export type ChatCompletionRequest = components['schemas']['ChatCompletionRequest'];
export type ChatMessage = components['schemas']['ChatMessage'];
export type ChatContentPart = components['schemas']['ChatContentPart'];
export type ChatCompletion = components['schemas']['ChatCompletion'];
export type ChatCompletionChunk = components['schemas']['ChatCompletionChunk'];
export type ChatFinishReason = components['schemas']['ChatFinishReason'];
export type ChatUsage = components['schemas']['ChatUsage'];
