import { outputLimits } from '../anthropic/convert-request.js';
import { type ConversationMessage, foldSystemMessages } from '../../core/fold-system-messages.js';
import type { CacheHint, ContentPart, MediaSource, ModelRequest, ToolCallPart } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type {
  BedrockContentBlock,
  BedrockConverseRequest,
  BedrockDocumentFormat,
  BedrockImageFormat,
  BedrockMessage,
  BedrockToolChoice,
  BedrockToolResultContent,
} from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * The Converse / ConverseStream body for a request
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html); the model is in the path.
 *
 * Images and files go inline (`bytes`): Bedrock fetches no URLs, so the registry has image URLs fetched
 * before this runs (with-inlined-image-urls.ts) and any URL left is refused. Cache hints become `cachePoint`
 * blocks after the hinted block. Thinking is asked for in Anthropic's own terms
 * (`additionalModelRequestFields.thinking`), for Claude models only: other model families name it otherwise.
 *
 * Dropped because Converse has no equivalent: `seed`, `topK`, penalties, `user`, `metadata`, image `detail`,
 * `parallelToolCalls`. A JSON response format is refused: Converse has no JSON mode, and bedrock models do not
 * claim `json_schema` by default, so one arrives only when a config claims it.
 *
 * @example
 * const body = convertRequestToBedrock(request, 'anthropic.claude-3-5-sonnet-20241022-v2:0');
 */
export function convertRequestToBedrock(clientRequest: ModelRequest, upstreamModel: string): BedrockConverseRequest {
  if (clientRequest.responseFormat.type !== 'text') {
    throw new GatewayError('invalid_request', 'Bedrock models answer in text: the Converse API has no JSON response format.', { param: 'response_format' });
  }
  const request = foldSystemMessages(clientRequest);
  const body: BedrockConverseRequest = { messages: request.messages.map(convertMessage).filter((message) => message.content.length > 0) };
  if (request.instructions.length > 0) {
    body.system = request.instructions.flatMap((instruction) => withCache({ text: instruction.text }, instruction.cache));
  }

  const thinking = isClaude(upstreamModel) ? outputLimits(request) : undefined;
  const inference: NonNullable<BedrockConverseRequest['inferenceConfig']> = {};
  if (thinking?.thinking !== undefined) {
    inference.maxTokens = thinking.maxTokens;
    body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: thinking.thinking } };
  } else {
    if (request.maxOutputTokens !== undefined) inference.maxTokens = request.maxOutputTokens;
    // Claude refuses temperature changes while thinking, so it only goes out without thinking.
    if (request.temperature !== undefined) inference.temperature = request.temperature;
  }
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stopSequences.length > 0) inference.stopSequences = request.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;

  const toolConfig = convertTools(request);
  if (toolConfig) body.toolConfig = toolConfig;
  return body;
}

/** Claude on Bedrock: `anthropic.claude-…`, a cross-region profile `us.anthropic.claude-…`, or an ARN naming one. */
function isClaude(modelId: string): boolean {
  return /anthropic\.claude/i.test(modelId);
}

/**
 * Converse has no `none` tool choice; the tools are then left out, unless the conversation already holds
 * tool calls, which Converse refuses without a `toolConfig`: then they stay, on `auto`.
 */
function convertTools(request: ModelRequest & { messages: ConversationMessage[] }): BedrockConverseRequest['toolConfig'] {
  if (request.tools.length === 0) return undefined;
  const hasToolHistory = request.messages.some((message) => message.content.some((part) => part.type === 'tool_call' || part.type === 'tool_result'));
  if (request.toolChoice.type === 'none' && !hasToolHistory) return undefined;
  const tools = request.tools.map((tool) => ({
    toolSpec: { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), inputSchema: { json: tool.parameters } },
  }));
  return { tools, toolChoice: convertToolChoice(request.toolChoice) };
}

function convertToolChoice(choice: ModelRequest['toolChoice']): BedrockToolChoice {
  switch (choice.type) {
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: choice.name } };
    case 'auto':
    case 'none':
      return { auto: {} };
    default:
      return assertNever(choice);
  }
}

function convertMessage(message: ConversationMessage): BedrockMessage {
  return { role: message.role, content: message.content.flatMap(convertPart) };
}

function convertPart(part: ContentPart): BedrockContentBlock[] {
  switch (part.type) {
    case 'text':
    case 'image':
    case 'file':
      return convertMedia(part).flatMap((block) => withCache(block, part.cache));
    case 'tool_call':
      return withCache({ toolUse: { toolUseId: part.id, name: part.name, input: parseToolInput(part) } }, part.cache);
    case 'tool_result':
      return withCache(
        {
          toolResult: {
            toolUseId: part.callId,
            // Converse wants at least one content block; an empty result is an empty text.
            content: part.content.length > 0 ? part.content.flatMap(convertMedia) : [{ text: '' }],
            ...(part.isError ? { status: 'error' as const } : {}),
          },
        },
        part.cache,
      );
    case 'reasoning':
      if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
      // Claude refuses unsigned thinking (reasoning another upstream produced): it is left out instead.
      if (part.signature) return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      return [];
    default:
      return assertNever(part);
  }
}

type MediaPart = Extract<ContentPart, { type: 'text' | 'image' | 'file' }>;

function convertMedia(part: MediaPart): BedrockToolResultContent[] {
  switch (part.type) {
    case 'text':
      // Converse rejects blank text blocks; Chat clients send `content: ""` next to tool calls.
      return part.text === '' ? [] : [{ text: part.text }];
    case 'image': {
      const { mediaType, data } = inlineBytes(part.source, 'image');
      const format = imageFormats[mediaType.toLowerCase()];
      if (!format) throw unsupported(`Images of type '${mediaType}' cannot be sent to Bedrock: it takes PNG, JPEG, GIF and WebP.`);
      return [{ image: { format, source: { bytes: data } } }];
    }
    case 'file': {
      const { mediaType, data } = inlineBytes(part.source, 'file');
      const imageFormat = imageFormats[mediaType.toLowerCase()];
      if (imageFormat) return [{ image: { format: imageFormat, source: { bytes: data } } }];
      const format = documentFormats[mediaType.toLowerCase().split(';')[0]!.trim()];
      if (!format) throw unsupported(`Files of type '${mediaType}' cannot be sent to Bedrock: it reads PDF, CSV, Word, Excel, HTML, Markdown and plain text.`);
      return [{ document: { format, name: documentName(part.filename), source: { bytes: data } } }];
    }
    default:
      return assertNever(part);
  }
}

const imageFormats: Record<string, BedrockImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

const documentFormats: Record<string, BedrockDocumentFormat> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** Bedrock allows letters, digits, single spaces, hyphens, parentheses and brackets in a document name. */
function documentName(filename: string | undefined): string {
  const name = (filename ?? '').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim();
  return name === '' ? 'document' : name.slice(0, 200);
}

/** The base64 bytes of an inline source; a `data:` URL counts as inline, any other URL is refused. */
function inlineBytes(source: MediaSource, what: 'image' | 'file'): { mediaType: string; data: string } {
  if (source.kind === 'base64') return source;
  const dataUrl = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(source.url);
  if (dataUrl) return { mediaType: dataUrl[1]!, data: dataUrl[2]! };
  throw unsupported(`Bedrock takes ${what}s inline only: send the ${what} as base64 data instead of the URL.`);
}

function unsupported(message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param: 'messages' });
}

/** Converse wants tool input as an object; arguments that are not one are refused rather than altered. */
function parseToolInput(part: ToolCallPart): Record<string, unknown> {
  if (part.arguments.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(part.arguments);
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw unsupported(`The arguments of tool call '${part.id}' are not a JSON object, which this model requires.`);
  }
  return input as Record<string, unknown>;
}

/** The block, followed by a cache checkpoint when the part carries a cache hint. */
function withCache<T extends object>(block: T, cache: CacheHint | undefined): Array<T | { cachePoint: { type: 'default' } }> {
  return cache ? [block, { cachePoint: { type: 'default' } }] : [block];
}
