import type { CacheHint, ContentPart, Instruction, Message, ModelRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../core/internal-representation.js';
import { decodeToolCallId } from '../../core/tool-call-signature.js';
import { GatewayError } from '../../core/gateway-error.js';
import type {
  KnownBlockParam,
  MessagesCacheControl,
  MessagesDocumentBlockParam,
  MessagesImageBlockParam,
  MessagesInputMessage,
  MessagesRequestBody,
  MessagesTool,
  MessagesToolChoice,
  MessagesToolResultBlockParam,
  MessagesToolUnion,
} from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * `translate`: the request is for an upstream that does not speak Messages, so what has no internal form
 * (server tools, file IDs) is refused with 400. `inspect`: the request goes to an Anthropic upstream as it
 * is (or is only counted), and the internal form serves capability checks and estimates, so such parts
 * are skipped instead.
 */
export type ConversionMode = 'translate' | 'inspect';

type MediaPart = Extract<ContentPart, { type: 'text' | 'image' | 'file' }>;
type TextPart = Extract<ContentPart, { type: 'text' }>;
type Effort = NonNullable<NonNullable<ModelRequest['reasoning']>['effort']>;

/**
 * Anthropic Messages request (create or count_tokens) → internal request.
 *
 * Blocks of types the gateway does not know (server tool calls and results, search results, …) are left
 * out: only Anthropic could read them. Tool-use IDs are decoded, so a Gemini thought signature folded into
 * one (core/tool-call-signature.ts) returns to Gemini; thinking blocks keep their signature, redacted
 * thinking its data.
 *
 * @example
 * const request = convertMessagesRequest({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
 */
export function convertMessagesRequest(body: MessagesRequestBody, mode: ConversionMode = 'translate'): ModelRequest {
  const refuse = (message: string, param: string): [] => {
    if (mode === 'translate') throw new GatewayError('invalid_request', message, { param });
    return [];
  };
  const toolNames = new Map<string, string>();
  const messages: Message[] = body.messages.map((message, index) => {
    const param = `messages[${index}]`;
    if (message.role === 'system') return { role: 'system', content: systemMessageText(message, param, refuse) };
    return { role: message.role, content: convertContent(message, param, { refuse, toolNames }) };
  });
  const tools = (body.tools ?? []).flatMap((tool, index) => convertTool(tool, `tools[${index}]`, refuse));
  const toolChoice = convertToolChoice(body.tool_choice);

  return {
    model: body.model,
    instructions: convertSystem(body.system),
    messages,
    tools,
    toolChoice,
    // Anthropic allows parallel tool use unless told otherwise; only the refusal is worth passing on.
    parallelToolCalls: body.tool_choice?.disable_parallel_tool_use === true ? false : undefined,
    responseFormat: convertOutputFormat(body.output_config),
    maxOutputTokens: body.max_tokens,
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    stopSequences: body.stop_sequences ?? [],
    reasoning: convertThinking(body),
    user: body.metadata?.user_id ?? undefined,
  };
}

interface BlockContext {
  refuse(message: string, param: string): [];
  /** Tool names by call ID, filled as tool_use blocks go by: Gemini matches results by function name. */
  toolNames: Map<string, string>;
}

function convertSystem(system: MessagesRequestBody['system']): Instruction[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ text: system }];
  return system.map((block) => withCache({ text: block.text }, block.cache_control));
}

/**
 * A `system` message in `messages` (Claude Code sends them mid-conversation): text only, kept in its place;
 * upstreams that take instructions only up front fold it in (core/fold-system-messages.ts).
 */
function systemMessageText(message: MessagesInputMessage, param: string, refuse: BlockContext['refuse']): TextPart[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.flatMap((block, index) => {
    const known = block as KnownBlockParam;
    if (known.type === 'text') return [withCache({ type: 'text' as const, text: known.text }, known.cache_control)];
    return refuse(`${param} is a system message, which holds text blocks only, but its content[${index}] is a '${known.type}' block.`, `${param}.content[${index}].type`);
  });
}

function convertContent(message: MessagesInputMessage, param: string, context: BlockContext): ContentPart[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.flatMap((block, index) => convertBlock(block as KnownBlockParam, `${param}.content[${index}]`, context));
}

function convertBlock(block: KnownBlockParam, param: string, context: BlockContext): ContentPart[] {
  switch (block.type) {
    case 'text':
    case 'image':
    case 'document':
      return convertMedia(block, param, context);
    case 'tool_use': {
      const { id, signature } = decodeToolCallId(block.id);
      context.toolNames.set(id, block.name);
      const call: ContentPart = { type: 'tool_call', id, name: block.name, arguments: JSON.stringify(block.input ?? {}) };
      if (signature) call.signature = signature;
      return [withCache(call, block.cache_control)];
    }
    case 'tool_result':
      return [convertToolResult(block, param, context)];
    case 'thinking':
      // An empty signature is what a translated answer carried (see render-message.ts): there is none.
      return [{ type: 'reasoning', text: block.thinking, ...(block.signature ? { signature: block.signature } : {}) }];
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', redacted: block.data }];
    default:
      // Server tool calls, their results and newer block types: meaningful to Anthropic alone.
      return [];
  }
}

function convertToolResult(block: MessagesToolResultBlockParam, param: string, context: BlockContext): ContentPart {
  const callId = decodeToolCallId(block.tool_use_id).id;
  const content =
    typeof block.content === 'string'
      ? [{ type: 'text' as const, text: block.content }]
      : (block.content ?? []).flatMap((item, index) => convertMedia(item as KnownBlockParam, `${param}.content[${index}]`, context));
  const name = context.toolNames.get(callId);
  return withCache(
    { type: 'tool_result', callId, content, ...(block.is_error ? { isError: true } : {}), ...(name !== undefined ? { name } : {}) },
    block.cache_control,
  );
}

function convertMedia(block: KnownBlockParam, param: string, context: BlockContext): MediaPart[] {
  switch (block.type) {
    case 'text':
      return [withCache({ type: 'text', text: block.text }, block.cache_control)];
    case 'image':
      return convertImage(block, param, context);
    case 'document':
      return convertDocument(block, param, context);
    default:
      // Search results and other block kinds only Anthropic reads.
      return [];
  }
}

function convertImage(block: MessagesImageBlockParam, param: string, context: BlockContext): MediaPart[] {
  const { source } = block;
  switch (source.type) {
    case 'base64':
      return [withCache({ type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } }, block.cache_control)];
    case 'url':
      return [withCache({ type: 'image', source: { kind: 'url', url: source.url } }, block.cache_control)];
    case 'file':
      return context.refuse("Images by file ID (Anthropic's Files API) can only be sent to models served by Anthropic.", `${param}.source`);
    default:
      return assertNever(source);
  }
}

/**
 * PDFs become file parts. Plain text and custom content become what they are, text (and images), which
 * every upstream reads, rather than a text file that OpenAI-style upstreams refuse.
 */
function convertDocument(block: MessagesDocumentBlockParam, param: string, context: BlockContext): MediaPart[] {
  const { source } = block;
  const filename = block.title ?? undefined;
  switch (source.type) {
    case 'base64':
      return [withCache({ type: 'file', source: { kind: 'base64', mediaType: source.media_type, data: source.data }, filename }, block.cache_control)];
    case 'url':
      return [withCache({ type: 'file', source: { kind: 'url', url: source.url }, filename }, block.cache_control)];
    case 'text':
      return [withCache({ type: 'text', text: source.data }, block.cache_control)];
    case 'content':
      if (typeof source.content === 'string') return [withCache({ type: 'text', text: source.content }, block.cache_control)];
      return source.content.flatMap((item, index) => convertMedia(item as KnownBlockParam, `${param}.source.content[${index}]`, context));
    case 'file':
      return context.refuse("Documents by file ID (Anthropic's Files API) can only be sent to models served by Anthropic.", `${param}.source`);
    default:
      return assertNever(source);
  }
}

function convertTool(tool: MessagesToolUnion, param: string, refuse: BlockContext['refuse']): ToolDefinition[] {
  if (!isClientTool(tool)) {
    return refuse(`The tool '${tool.name}' of type '${tool.type}' is one of Anthropic's own and can only be used with models served by Anthropic.`, `${param}.type`);
  }
  // Anthropic keeps a deferred tool out of the model's sight until its tool search finds it; other upstreams
  // have no tool search, so they do not see it either (Claude Code defers one it says must never be called).
  if (tool.defer_loading === true) return [];
  const definition: ToolDefinition = { name: tool.name, parameters: tool.input_schema };
  if (tool.description !== undefined) definition.description = tool.description;
  const strict = (tool as { strict?: unknown }).strict;
  if (typeof strict === 'boolean') definition.strict = strict;
  return [definition];
}

function isClientTool(tool: MessagesToolUnion): tool is MessagesTool {
  return tool.type === undefined || tool.type === null || tool.type === 'custom';
}

function convertToolChoice(choice: MessagesToolChoice | undefined): ToolChoice {
  const type = choice?.type;
  switch (type) {
    case undefined:
    case 'auto':
      return { type: 'auto' };
    case 'any':
      return { type: 'required' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      if (!choice?.name) throw new GatewayError('invalid_request', "tool_choice of type 'tool' needs the tool's name.", { param: 'tool_choice.name' });
      return { type: 'tool', name: choice.name };
    default:
      return assertNever(type);
  }
}

/** Anthropic's structured output (`output_config.format`) is a plain JSON schema, unnamed. */
function convertOutputFormat(config: MessagesRequestBody['output_config']): ResponseFormat {
  const format = config?.format;
  if (!format) return { type: 'text' };
  return { type: 'json_schema', name: 'response', schema: format.schema };
}

/** Anthropic's effort scale tops out at `max`, one step past the gateway's `xhigh`. */
const effortOf: Record<NonNullable<NonNullable<MessagesRequestBody['output_config']>['effort']>, Effort> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'xhigh',
};

/**
 * A budget stays a budget. Adaptive thinking has none: it becomes the effort the client asked for, or
 * Anthropic's defaults (high for adaptive; the least for between-tools thinking).
 */
function convertThinking(body: MessagesRequestBody): ModelRequest['reasoning'] {
  const { thinking } = body;
  const effort = body.output_config?.effort ? effortOf[body.output_config.effort] : undefined;
  switch (thinking?.type) {
    case undefined:
    case 'disabled':
      return undefined;
    case 'enabled':
      return { budgetTokens: thinking.budget_tokens };
    case 'adaptive':
      return { effort: effort ?? 'high' };
    case 'between_tools':
      return { effort: effort ?? 'low' };
    default:
      return assertNever(thinking);
  }
}

function withCache<T extends object>(part: T, cacheControl: MessagesCacheControl | undefined): T & { cache?: CacheHint } {
  if (!cacheControl) return part;
  return { ...part, cache: cacheControl.ttl !== undefined ? { type: 'ephemeral', ttl: cacheControl.ttl } : { type: 'ephemeral' } };
}
