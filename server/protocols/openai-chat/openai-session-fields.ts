import type { SessionFields } from '../../core/session-key.js';
import type { ChatCompletionRequest } from './wire-types.js';

/**
 * Where a Chat Completions or Responses body names its session (core/session-key.ts): `prompt_cache_key`,
 * OpenAI's own name for what shares a prompt cache (https://platform.openai.com/docs/guides/prompt-caching),
 * and a `user_id` among the client's `metadata` pairs, read as Messages' `metadata.user_id` is.
 */
export const openAISessionFields = {
  promptCacheKey: (body) => body.prompt_cache_key,
  endUser: (body) => (body as Pick<ChatCompletionRequest, 'metadata'>).metadata?.user_id,
} satisfies SessionFields;
