import { z } from 'zod';
import { openUnion } from '../upstream/open-union.js';

/**
 * What the translation reads of ConverseStream's events
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_ResponseSyntax),
 * checked once per event in convert-stream.ts. An event's type comes from its `:event-type` header and is
 * set as `type` before the check. Event types newer than this code read as `(other)` and are skipped,
 * fields not named here (the `p` padding, `metrics`, citation and image deltas) are accepted and dropped,
 * any stop reason string goes. What is named must be there with its type: a `contentBlockDelta` without
 * its `delta`, or counts that are strings, are a malformed event.
 */

const count = z.number().nullish();
const blockIndex = z.number();

/** Like Anthropic, Converse counts cache reads and writes apart from `inputTokens`. */
const usage = z.object({ inputTokens: count, outputTokens: count, cacheReadInputTokens: count, cacheWriteInputTokens: count });
export type BedrockUsage = z.infer<typeof usage>;

/** One of `text`, `toolUse` (the input as partial JSON), `reasoningContent`, or a kind the converter skips. */
const delta = z.object({
  text: z.string().nullish(),
  toolUse: z.object({ input: z.string() }).nullish(),
  reasoningContent: z
    .object({ text: z.string().nullish(), signature: z.string().nullish(), redactedContent: z.string().nullish() })
    .nullish(),
});
export type BedrockDelta = z.infer<typeof delta>;

export const bedrockStreamEventSchema = openUnion([
  z.object({ type: z.literal('messageStart') }),
  z.object({
    type: z.literal('contentBlockStart'),
    contentBlockIndex: blockIndex,
    // Only tool use starts a block with a `start`; other kinds are skipped.
    start: z.object({ toolUse: z.object({ toolUseId: z.string(), name: z.string() }).nullish() }).nullish(),
  }),
  z.object({ type: z.literal('contentBlockDelta'), contentBlockIndex: blockIndex, delta }),
  z.object({ type: z.literal('contentBlockStop'), contentBlockIndex: blockIndex }),
  z.object({ type: z.literal('messageStop'), stopReason: z.string() }),
  z.object({ type: z.literal('metadata'), usage: usage.nullish() }),
]);
export type BedrockStreamEvent = z.infer<typeof bedrockStreamEventSchema>;
