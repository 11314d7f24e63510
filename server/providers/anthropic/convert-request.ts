import { type ConversationMessage, foldSystemMessages } from '../../core/fold-system-messages.js';
import { thinkingBudget } from '../../core/reasoning-budget.js';
import type { CacheHint, ContentPart, MediaSource, Message, ModelRequest, ToolCallPart, ToolChoice } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolChoice,
} from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/** `max_tokens` is required by Anthropic; this is what we send when the client set no limit. */
export const defaultMaxOutputTokens = 4096;

/** Anthropic refuses thinking budgets below this (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking). */
export const minimumThinkingBudget = 1024;

/**
 * The tool that carries a JSON answer. Anthropic has no response format; the portable way (vercel/ai's) is
 * a tool whose input schema is the wanted schema, which the model is made to call. convert-stream.ts turns
 * the call back into text.
 */
export const jsonResponseToolName = 'json';

/**
 * The POST /v1/messages body for a request, always streamed.
 *
 * Dropped because Anthropic has no equivalent: `seed`, `frequencyPenalty`, `presencePenalty`, `metadata`
 * (only `user` has a home, as `metadata.user_id`), image `detail`.
 *
 * @example
 * const body = convertRequestToAnthropic(request, 'claude-sonnet-4-5');
 */
export function convertRequestToAnthropic(clientRequest: ModelRequest, upstreamModel: string): AnthropicRequest {
  // Mid-conversation system messages go to `system`: Anthropic keeps them in place only behind a beta.
  const request = foldSystemMessages(clientRequest);
  const { maxTokens, thinking } = outputLimits(request);

  const body: AnthropicRequest = {
    model: upstreamModel,
    max_tokens: maxTokens,
    messages: request.messages.map(convertMessage).filter((message) => message.content.length > 0),
    stream: true,
  };
  if (request.instructions.length > 0) {
    body.system = request.instructions.map((instruction) => withCache({ type: 'text', text: instruction.text }, instruction.cache));
  }
  if (thinking !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: thinking };
  } else {
    // Anthropic rejects temperature and top_k changes while thinking, so they only go out without it.
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topK !== undefined) body.top_k = request.topK;
  }
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  Object.assign(body, convertTools(request, thinking !== undefined));
  return body;
}

/**
 * `max_tokens` and the thinking budget. The budget is part of `max_tokens`, and Anthropic refuses a budget
 * that leaves no room to answer. A cap the request names (the client's, or one the gateway granted and
 * reserved) or the caller's ceiling (`outputTokenCeiling`) is what was reserved and permitted, so
 * `max_tokens` never grows past it (issue 34: `max_tokens: 10` with `reasoning_effort: xhigh` went out as
 * 36,864): the budget gives way instead, to half the cap, or to no thinking when that is below Anthropic's
 * minimum. Only a request without either gets `max_tokens` grown to make room for thinking.
 */
export function outputLimits(request: ModelRequest): { maxTokens: number; thinking?: number } {
  const budget = thinkingBudget(request.reasoning);
  const thinking = budget ? Math.max(budget, minimumThinkingBudget) : undefined;
  const cap = Math.min(request.maxOutputTokens ?? Infinity, request.outputTokenCeiling ?? Infinity);
  if (cap === Infinity) return { maxTokens: (thinking ?? 0) + defaultMaxOutputTokens, thinking };
  if (thinking === undefined || thinking < cap) return { maxTokens: cap, thinking };
  const half = Math.floor(cap / 2);
  return { maxTokens: cap, thinking: half >= minimumThinkingBudget ? half : undefined };
}

function convertTools(request: ModelRequest, thinking: boolean): Pick<AnthropicRequest, 'tools' | 'tool_choice'> {
  const tools: AnthropicTool[] = request.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input_schema: tool.parameters,
  }));
  const format = request.responseFormat;
  if (format.type === 'text') {
    return tools.length > 0 ? { tools, tool_choice: convertToolChoice(request.toolChoice, request.parallelToolCalls) } : {};
  }
  const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
  tools.push({ name: jsonResponseToolName, description: jsonToolDescription(format), input_schema: schema });
  // Forced tool use is refused while thinking, so the model is only offered the tool then.
  if (thinking) return { tools, tool_choice: { type: 'auto' } };
  // A client that itself forced one of its tools keeps that; otherwise the answer must be some tool call,
  // and the JSON tool exactly when the client's tools are not in play.
  const choice: ToolChoice =
    request.toolChoice.type === 'tool'
      ? request.toolChoice
      : request.tools.length > 0 && request.toolChoice.type !== 'none'
        ? { type: 'required' }
        : { type: 'tool', name: jsonResponseToolName };
  return { tools, tool_choice: convertToolChoice(choice, request.parallelToolCalls) };
}

function jsonToolDescription(format: Extract<ModelRequest['responseFormat'], { type: 'json_object' | 'json_schema' }>): string {
  if (format.type === 'json_schema' && format.description) return `Respond with a JSON object: ${format.description}`;
  return 'Respond with a JSON object.';
}

function convertToolChoice(choice: ToolChoice, parallelToolCalls: boolean | undefined): AnthropicToolChoice {
  // Anthropic allows disable_parallel_tool_use on every choice except none.
  const parallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...parallel };
    case 'required':
      return { type: 'any', ...parallel };
    case 'tool':
      return { type: 'tool', name: choice.name, ...parallel };
    case 'none':
      return { type: 'none' };
    default:
      return assertNever(choice);
  }
}

function convertMessage(message: ConversationMessage): AnthropicMessage {
  return { role: message.role, content: message.content.flatMap(convertPart) };
}

/** One part as zero or one blocks: some parts have no Anthropic form and are dropped (see below). */
function convertPart(part: ContentPart): AnthropicContentBlock[] {
  switch (part.type) {
    case 'text':
    case 'image':
    case 'file':
      return convertMedia(part);
    case 'tool_call':
      return [withCache({ type: 'tool_use', id: part.id, name: part.name, input: parseToolInput(part) }, part.cache)];
    case 'tool_result': {
      const content = part.content.flatMap(convertMedia);
      return [
        withCache(
          {
            type: 'tool_result',
            tool_use_id: part.callId,
            ...(content.length > 0 ? { content } : {}),
            ...(part.isError ? { is_error: true } : {}),
          },
          part.cache,
        ),
      ];
    }
    case 'reasoning':
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      if (part.signature) return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
      // Anthropic rejects thinking without its signature (e.g. reasoning another upstream produced), so
      // unsigned reasoning is left out rather than failing the whole call.
      return [];
    default:
      return assertNever(part);
  }
}

type MediaPart = Extract<ContentPart, { type: 'text' | 'image' | 'file' }>;

function convertMedia(part: MediaPart): Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock> {
  switch (part.type) {
    case 'text':
      // Anthropic rejects empty text blocks; Chat clients send `content: ""` next to tool calls.
      return part.text === '' ? [] : [withCache({ type: 'text', text: part.text }, part.cache)];
    case 'image':
      return [withCache({ type: 'image', source: imageSource(part.source) }, part.cache)];
    case 'file':
      return [withCache(convertFile(part), part.cache)];
    default:
      return assertNever(part);
  }
}

function imageSource(source: MediaSource): AnthropicImageBlock['source'] {
  return source.kind === 'url' ? { type: 'url', url: source.url } : { type: 'base64', media_type: source.mediaType, data: source.data };
}

/** Anthropic reads PDFs and plain text as documents (https://docs.anthropic.com/en/docs/build-with-claude/pdf-support). */
function convertFile(part: Extract<ContentPart, { type: 'file' }>): AnthropicImageBlock | AnthropicDocumentBlock {
  const { source } = part;
  const title = part.filename !== undefined ? { title: part.filename } : {};
  if (source.kind === 'url') return { type: 'document', source: { type: 'url', url: source.url }, ...title };
  const mediaType = source.mediaType.toLowerCase();
  if (mediaType.startsWith('image/')) return { type: 'image', source: imageSource(source) };
  if (mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: source.data }, ...title };
  if (mediaType.startsWith('text/plain')) {
    const text = Buffer.from(source.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  throw new GatewayError('invalid_request', `Files of type '${source.mediaType}' cannot be sent to this model: it reads PDF and plain text files.`, {
    param: 'messages',
  });
}

/**
 * Anthropic wants tool input as an object, not text. Arguments that are not a JSON object cannot be sent
 * faithfully, so the call is refused rather than altered; empty arguments mean a call without any.
 */
function parseToolInput(part: ToolCallPart): Record<string, unknown> {
  if (part.arguments.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(part.arguments);
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new GatewayError('invalid_request', `The arguments of tool call '${part.id}' are not a JSON object, which this model requires.`, {
      param: 'messages',
    });
  }
  return input as Record<string, unknown>;
}

function withCache<T extends object>(block: T, cache: CacheHint | undefined): T & { cache_control?: AnthropicCacheControl } {
  if (!cache) return block;
  return { ...block, cache_control: cache.ttl !== undefined ? { type: 'ephemeral', ttl: cache.ttl } : { type: 'ephemeral' } };
}
