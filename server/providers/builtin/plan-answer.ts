/**
 * Decides what the built-in model answers to a request: a tool call, a summary of tool results, structured
 * output or an echo, with stop sequences and the token limit applied. Pure and deterministic.
 */
import type { FinishReason, Message, ModelRequest, ResponseFormat, ToolDefinition } from '../../core/internal-representation.js';
import { limitText, limitToolCall } from './apply-output-limits.js';
import { composeEcho, describeToolResults, findLastUserMessage, hasToolResults, joinText } from './compose-reply-text.js';
import { deriveId } from './derive-id.js';
import { deriveJsonFromSchema } from './derive-json-from-schema.js';
import { assertNever } from '../../core/assert-never.js';
import { isCompactedSummary } from '../../core/compaction-summary.js';

/** What to stream: text or one tool call, already cut to the request's limits. */
export type AnswerPlan =
  | { kind: 'text'; text: string; finishReason: FinishReason; stopSequence?: string; outputTokens: number }
  | { kind: 'tool_call'; id: string; name: string; arguments: string; finishReason: FinishReason; outputTokens: number };

/**
 * Plans the answer:
 * 1. tools offered, `toolChoice` not `none` and the last message a user message without tool results →
 *    call the chosen tool with arguments derived from its schema and the user's text; not when that message
 *    is the summary of a compacted conversation (core/compaction-summary.ts): it stands for work done, so
 *    the model answers it in text, as a model told "do not repeat finished work" would (calling the tool
 *    again, a client that compacts on every follow-up would compact and call for ever);
 * 2. last message carries tool results → describe them (`Tool get_weather returned: …`);
 * 3. otherwise echo the last user message (`You said: …`).
 * Text answers then follow `responseFormat` and `stopSequences`; everything follows `maxOutputTokens`, or
 * {@link defaultMaxOutputTokens} when the request sets none.
 *
 * @example planAnswer(request) // → { kind: 'text', text: 'You said: hi', finishReason: 'stop', outputTokens: 4 }
 */
export function planAnswer(request: ModelRequest): AnswerPlan {
  const last = request.messages.at(-1);
  const tool = chooseTool(request, last);
  if (tool) {
    const args = JSON.stringify(deriveJsonFromSchema(tool.parameters, joinText(last?.content ?? [])));
    // Hashing the conversation keeps IDs stable per request yet distinct across turns.
    const id = `call_${deriveId(JSON.stringify([request.messages, tool.name, args]))}`;
    return { kind: 'tool_call', id, name: tool.name, ...limitToolCall(tool.name, args, outputLimit(request)) };
  }
  const answeringToolResults = hasToolResults(last);
  const plain = answeringToolResults ? describeToolResults(request.messages, last) : composeEcho(request.messages);
  const source = answeringToolResults ? plain : joinText(findLastUserMessage(request.messages)?.content ?? []);
  const text = formatAnswer(request.responseFormat, plain, source);
  return { kind: 'text', ...limitText(text, request.stopSequences, outputLimit(request)) };
}

/**
 * The most the built-in model says when the request names no limit, as every real model has an output limit:
 * without one, echoing a 400 kB prompt streamed 80,000 chunks over 15 seconds.
 */
export const defaultMaxOutputTokens = 4096;

const outputLimit = (request: ModelRequest): number => request.maxOutputTokens ?? defaultMaxOutputTokens;

/**
 * The tool to call, or undefined to answer in text. `{ type: 'tool' }` naming a tool that was not offered
 * falls back to the first tool: the protocol layer rejects such requests before they get here.
 */
function chooseTool(request: ModelRequest, last: Message | undefined): ToolDefinition | undefined {
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice.type === 'none') return undefined;
  if (last?.role === 'user' && isCompactedSummary(joinText(last.content))) return undefined;
  if (last?.role !== 'user' || hasToolResults(last)) return undefined;
  if (toolChoice.type === 'tool') return tools.find((tool) => tool.name === toolChoice.name) ?? tools[0];
  return tools[0];
}

/** Structured output: a schema gets a conforming value built from `source`; JSON mode wraps the text. */
function formatAnswer(format: ResponseFormat, plain: string, source: string): string {
  switch (format.type) {
    case 'text':
      return plain;
    case 'json_object':
      return JSON.stringify({ message: plain });
    case 'json_schema':
      return JSON.stringify(deriveJsonFromSchema(format.schema, source));
    default:
      return assertNever(format);
  }
}
