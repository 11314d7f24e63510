import { z } from 'zod';
import { openUnion } from '../upstream/open-union.js';

/**
 * What the translation reads of Anthropic's Messages stream
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming), checked once per event in
 * convert-stream.ts. Anthropic adds event types, content block types, delta types, stop reasons and fields
 * over time: unknown types read as `(other)` and are skipped, unknown fields are accepted and dropped, any
 * stop reason string goes. What is named must be there with its type: a `content_block_delta` without its
 * `delta`, or a `text_delta` without its text, is a malformed event.
 */

const count = z.number().nullish();

/** `usage` in `message_start.message` and `message_delta`; counts are cumulative. */
export const anthropicUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_read_input_tokens: count,
  cache_creation_input_tokens: count,
  /** The cache writes by the cache they went to (`cache_control.ttl`), priced apart. */
  cache_creation: z.object({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count }).nullish(),
  /** `standard`, `priority` or `batch`: the tier billed. */
  service_tier: z.string().nullish(),
});
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/** Server tool calls, their results, and block types newer than this code read as `(other)`. */
const contentBlock = openUnion([
  z.object({ type: z.literal('text'), text: z.string().optional() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string().optional(), signature: z.string().optional() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string().optional() }),
]);

/** `citations_delta` and delta types newer than this code read as `(other)`. */
const contentDelta = openUnion([
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.object({ type: z.literal('signature_delta'), signature: z.string() }),
]);

/** `ping`, `error` (read by read-error.ts, which takes any shape) and newer event types read as `(other)`. */
export const anthropicStreamEventSchema = openUnion([
  z.object({ type: z.literal('message_start'), message: z.object({ id: z.string().optional(), usage: anthropicUsageSchema.nullish() }) }),
  z.object({ type: z.literal('content_block_start'), index: z.number(), content_block: contentBlock }),
  z.object({ type: z.literal('content_block_delta'), index: z.number(), delta: contentDelta }),
  z.object({ type: z.literal('content_block_stop'), index: z.number() }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
]);
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;
