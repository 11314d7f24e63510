import type { components } from '../../../generated/api.js';
import { encodeToolCallId } from '../../core/tool-call-signature.js';
import type { FinishReason, ModelResponse, Usage } from '../../core/internal-representation.js';
import { encodeReasoningState } from './reasoning-state.js';
import { responseErrorCode } from './response-error-code.js';
import { newOutputItemId, newPrefixedId } from './response-ids.js';
import { customInputFromArguments, ResponsesToolNames } from './responses-tool-names.js';
import { assertNever } from '../../core/assert-never.js';

// https://platform.openai.com/docs/api-reference/responses/object
type Schemas = components['schemas'];
export type ResponsesResponse = Schemas['ResponsesResponse'];
export type ResponsesOutputItem = Schemas['ResponsesOutputItem'];
export type ResponsesUsage = Schemas['ResponsesUsage'];
export type OutputPart = ModelResponse['content'][number];
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/**
 * What the response echoes back from the request (settings), typed by the response's own fields — the
 * caller fills it from the request body (response-echo.ts).
 */
export interface ResponseEcho {
  model: string;
  instructions: string | null;
  previous_response_id: string | null;
  store: boolean;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  tool_choice: ResponsesResponse['tool_choice'];
  tools: NonNullable<ResponsesResponse['tools']>;
  text: ResponsesResponse['text'] | null;
  reasoning: ResponsesResponse['reasoning'];
  parallel_tool_calls: boolean;
  metadata: Record<string, string>;
  truncation: NonNullable<ResponsesResponse['truncation']>;
  user: string | null;
  /** The request's `conversation`, reported as `{id}`; absent without one. */
  conversation?: { id: string } | null;
}

export interface RenderResponseOptions {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The output limit the gateway actually applied, when it differs from the request's. */
  maxOutputTokens?: number;
  /**
   * IDs for the output items, in order. A stream passes the IDs its item events used, because the SDK replaces
   * its snapshot with the final response and a client that tracked items by ID would lose them.
   */
  itemIds?: readonly string[];
  /** Unix seconds; defaults to now. */
  completedAt?: number;
}

/** Internal answer → Responses `response` object. */
export function renderResponse(response: ModelResponse, echo: ResponseEcho, options: RenderResponseOptions): ResponsesResponse {
  const outcome = outcomeOf(response.finishReason);
  return {
    ...responseSnapshot(echo, options, outcome.status),
    completed_at: outcome.status === 'completed' ? (options.completedAt ?? Math.floor(Date.now() / 1000)) : null,
    incomplete_details: outcome.incompleteDetails,
    output: renderOutput(response.content, options.itemIds, finalItemStatus(response.finishReason), ResponsesToolNames.of(echo.tools)),
    usage: renderResponsesUsage(response.usage),
  };
}

/**
 * The response of `response.failed`: what was produced before the failure, so a client keeps the partial
 * answer. `interrupted` marks the last item as cut off mid-way.
 */
export function renderFailedResponse(
  partial: { content: ModelResponse['content']; usage?: Usage },
  echo: ResponseEcho,
  options: RenderResponseOptions,
  failure: { code: string; message: string; interrupted: boolean },
): ResponsesResponse {
  return {
    ...responseSnapshot(echo, options, 'failed'),
    error: { code: responseErrorCode(failure.code), message: failure.message },
    output: renderOutput(partial.content, options.itemIds, failure.interrupted ? 'incomplete' : 'completed', ResponsesToolNames.of(echo.tools)),
    usage: partial.usage ? renderResponsesUsage(partial.usage) : null,
  };
}

/** The response before any output: the snapshot of `response.created` and `response.in_progress`. */
export function responseSnapshot(echo: ResponseEcho, options: RenderResponseOptions, status: ResponsesResponse['status']): ResponsesResponse {
  return {
    id: options.id,
    object: 'response',
    created_at: options.createdAt,
    status,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: echo.instructions,
    max_output_tokens: options.maxOutputTokens ?? echo.max_output_tokens,
    model: echo.model,
    output: [],
    parallel_tool_calls: echo.parallel_tool_calls,
    previous_response_id: echo.previous_response_id,
    reasoning: echo.reasoning ?? null,
    store: echo.store,
    temperature: echo.temperature,
    // The spec allows no null for `text` and `tool_choice`; these are OpenAI's defaults when the request left them out.
    text: echo.text ?? { format: { type: 'text' } },
    tool_choice: echo.tool_choice ?? 'auto',
    tools: echo.tools,
    top_p: echo.top_p,
    truncation: echo.truncation,
    usage: null,
    user: echo.user,
    metadata: echo.metadata,
    ...(echo.conversation ? { conversation: echo.conversation } : {}),
  };
}

/** Answer parts → output items in content order. Empty text makes no message (a stream never opens one for it). */
export function renderOutput(
  content: ModelResponse['content'],
  itemIds: readonly string[] | undefined,
  lastStatus: ItemStatus,
  names: ResponsesToolNames,
): ResponsesOutputItem[] {
  const shown = content.filter((part) => part.type !== 'text' || part.text !== '');
  return shown.map((part, index) =>
    renderOutputItem(part, itemIds?.[index] ?? newItemIdFor(part, names), index === shown.length - 1 ? lastStatus : 'completed', names),
  );
}

/** A new ID for the item a part becomes: as newOutputItemId, and `ctc_` for a call of a custom tool, as OpenAI's. */
export function newItemIdFor(part: OutputPart, names: ResponsesToolNames): string {
  return part.type === 'tool_call' && names.clientTool(part.name).kind === 'custom' ? newPrefixedId('ctc') : newOutputItemId(part.type);
}

/** One answer part as an output item; `names` turns a tool call back into the client's tool (responses-tool-names.ts). */
export function renderOutputItem(part: OutputPart, id: string, status: ItemStatus, names: ResponsesToolNames): ResponsesOutputItem {
  switch (part.type) {
    case 'text':
      return {
        type: 'message',
        id,
        status,
        role: 'assistant',
        content: [{ type: 'output_text', text: part.text, annotations: [], logprobs: [] }],
      };
    case 'tool_call': {
      // The Gemini thought signature rides in `call_id`, which clients echo verbatim in `function_call_output`.
      const callId = encodeToolCallId(part.id, part.signature);
      const tool = names.clientTool(part.name);
      const namespace = tool.namespace ? { namespace: tool.namespace } : {};
      if (tool.kind === 'custom') {
        return { type: 'custom_tool_call', id, call_id: callId, name: tool.name, ...namespace, input: customInputFromArguments(part.arguments), status };
      }
      return { type: 'function_call', id, call_id: callId, name: tool.name, ...namespace, arguments: part.arguments, status };
    }
    case 'reasoning': {
      // Reasoning text goes in `summary`: that is what Codex and the AI SDK show. Signatures and redacted
      // reasoning are opaque and must come back unchanged (see reasoning-state.ts).
      const encrypted = encodeReasoningState(part);
      return {
        type: 'reasoning',
        id,
        summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
        ...(encrypted ? { encrypted_content: encrypted } : {}),
      };
    }
    default:
      return assertNever(part);
  }
}

/**
 * OpenAI counts cached tokens inside input and reasoning tokens inside output, as we do. Its spec requires
 * `cache_write_tokens` (the SDK types it as a number), so it is 0 where the upstream wrote no cache.
 */
export function renderResponsesUsage(usage: Usage): NonNullable<ResponsesUsage> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The status of the last output item: it is the one a length or content-filter stop cut short. */
export function finalItemStatus(reason: FinishReason): ItemStatus {
  return outcomeOf(reason).status === 'incomplete' ? 'incomplete' : 'completed';
}

function outcomeOf(reason: FinishReason): { status: 'completed' | 'incomplete'; incompleteDetails: ResponsesResponse['incomplete_details'] } {
  switch (reason) {
    case 'stop':
    case 'stop_sequence':
    case 'tool_calls':
      return { status: 'completed', incompleteDetails: null };
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content_filter':
    case 'refusal':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    default:
      return assertNever(reason);
  }
}
