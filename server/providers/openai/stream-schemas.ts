import { z } from 'zod';
import { openUnion } from '../upstream/open-union.js';

/**
 * What the translation reads of a Chat Completions chunk
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming), checked once per chunk in
 * convert-stream.ts. Tolerant, because OpenAI-compatible servers fill in only part of OpenAI's shape:
 * every field may be missing or `null`, fields not named here are accepted and dropped, and any
 * `finish_reason` string goes (map-finish-reason.ts decides what it means). What is named must have its
 * type: `choices` that is not an array, or counts that are strings, are a malformed chunk.
 */

const count = z.number().nullish();
const text = z.string().nullish();

/** `usage` as OpenAI sends it; compatible servers often omit the details objects. */
export const chatUsageSchema = z.object({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.object({ cached_tokens: count, audio_tokens: count }).nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: count, audio_tokens: count }).nullish(),
});
export type ChatWireUsage = z.infer<typeof chatUsageSchema>;

const toolCallDelta = z.object({
  /** Required by OpenAI; servers that send whole calls without it are numbered by position. */
  index: count,
  id: text,
  function: z.object({ name: text, arguments: text }).nullish(),
});

const textPart = z.object({ type: z.literal('text'), text: z.string() });

/**
 * Mistral's reasoning models (Magistral) send `content` as parts: `text`, and `thinking` holding text
 * parts. Other part types read as `(other)`.
 */
const contentPart = openUnion([textPart, z.object({ type: z.literal('thinking'), thinking: z.array(openUnion([textPart])) })]);

const delta = z.object({
  content: z.union([z.string(), z.array(contentPart)]).nullish(),
  refusal: text,
  /** DeepSeek and vLLM (older) name reasoning text `reasoning_content`… */
  reasoning_content: text,
  /** …OpenRouter, Ollama and newer vLLM name it `reasoning`. */
  reasoning: text,
  tool_calls: z.array(toolCallDelta).nullish(),
});
export type ChatDelta = z.infer<typeof delta>;

export const chatChunkSchema = z.object({
  id: text,
  choices: z.array(z.object({ index: count, delta: delta.nullish(), finish_reason: text })).nullish(),
  usage: chatUsageSchema.nullish(),
  /** The tier that served the request (`default`, `flex`, `priority`), which is the one billed. */
  service_tier: text,
  /** Groq also reports usage here on the last chunk. */
  x_groq: z.object({ usage: chatUsageSchema.nullish() }).nullish(),
});
