import type { components } from '../../../generated/api.js';

/** Chat Completions wire types, straight from the spec. */
export type ChatCompletionRequest = components['schemas']['ChatCompletionRequest'];
export type ChatMessage = components['schemas']['ChatMessage'];
export type ChatContentPart = components['schemas']['ChatContentPart'];
export type ChatCompletion = components['schemas']['ChatCompletion'];
export type ChatCompletionChunk = components['schemas']['ChatCompletionChunk'];
export type ChatFinishReason = components['schemas']['ChatFinishReason'];
export type ChatUsage = components['schemas']['ChatUsage'];
/**
 * What a streamed chat completion's `data:` lines carry: the spec's chunks, then `[DONE]`. A failure once
 * the stream has begun goes in-band as OpenAI's error body, as OpenAI sends it (so the SDK throws); the
 * spec's `text/event-stream` names only the chunks, so that frame is typed by its error schema.
 */
export type ChatStreamData = ChatCompletionChunk | components['schemas']['OpenAIError'] | '[DONE]';
