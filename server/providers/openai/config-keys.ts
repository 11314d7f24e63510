import { z } from 'zod';
import type { ProviderTypeEntry } from '../../config/provider-entry.js';

/**
 * Behaviours in which OpenAI-compatible servers differ from OpenAI. Defaults suit vLLM, Ollama,
 * llama.cpp, Groq and DeepSeek (see ../openai-compatible/quirks.ts).
 */
const quirksSchema = z.strictObject({
  /** Whether the server understands `stream_options: {include_usage: true}`. */
  stream_options: z.boolean().optional(),
  /** Which field carries the output-token limit. */
  max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  /** Whether the `developer` role is understood; if not it is sent as `system`. */
  developer_role: z.boolean().optional(),
  /** Whether system messages may stand anywhere in the conversation; if not they join the first one. */
  system_anywhere: z.boolean().optional(),
});

/** The `quirks` of a provider entry, as configured (see ../openai-compatible/quirks.ts for what is resolved from them). */
export type CompatibleQuirks = z.infer<typeof quirksSchema>;

/**
 * The config keys of the types that speak OpenAI's wire formats (`openai`, `openai-compatible`,
 * `azure-openai`): each of their config entries spreads these same schemas.
 */
export const openAIConfigKeys = {
  /** How the server departs from OpenAI (see ../openai-compatible/quirks.ts); `openai` honours them too, for a proxy. */
  quirks: quirksSchema.optional(),
  /**
   * Which upstream API serves Responses API clients. `chat` (default) translates them to Chat Completions;
   * `responses` forwards them to the upstream's own `/responses`.
   */
  api: z.enum(['chat', 'responses']).optional(),
  /**
   * Fetch image URLs (through `outbound`'s guard) and send them as `data:` URLs, for servers that take only
   * inline images (Ollama, llama.cpp); the default is the definition's `inlinesImageUrls`.
   */
  inline_image_urls: z.boolean().optional(),
};

/** The `openai` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const openAIConfigEntry: ProviderTypeEntry<'openai', typeof openAIConfigKeys> = {
  type: 'openai',
  serves: { chat: true, responses: true, images: true, embeddings: true, batches: true },
  config: { keys: openAIConfigKeys },
};
