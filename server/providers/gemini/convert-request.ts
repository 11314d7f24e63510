import { type ConversationMessage, foldSystemMessages } from '../../core/fold-system-messages.js';
import { thinkingBudget } from '../../core/reasoning-budget.js';
import type { ContentPart, MediaSource, Message, ModelRequest, ToolChoice, ToolResultPart } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import type { GeminiContent, GeminiGenerationConfig, GeminiPart, GeminiRequest, GeminiRole } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * Google's documented value for "this function call has no real signature"
 * (https://ai.google.dev/gemini-api/docs/thought-signatures). Gemini 3 refuses a history whose model turn
 * calls a function without one, which happens whenever the call came from another model or a client that
 * could not carry the signature back.
 */
export const skipThoughtSignature = 'skip_thought_signature_validator';

/**
 * The internal request as a Gemini `generateContent` body (https://ai.google.dev/api/generate-content).
 *
 * Dropped because Gemini has no field for them: `user`, `metadata`, `parallelToolCalls`, tool `strict`,
 * cache hints (Gemini caches through a separate CachedContent API) and reasoning parts (Gemini takes no
 * thoughts back; the signatures that matter travel on functionCall parts).
 *
 * @example
 * const body = convertToGeminiRequest(request);
 * await client.postJson(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, body, signal);
 */
export function convertToGeminiRequest(clientRequest: ModelRequest): GeminiRequest {
  // Gemini takes instructions only as systemInstruction: mid-conversation system messages join it.
  const request = foldSystemMessages(clientRequest);
  const body: GeminiRequest = { contents: convertMessages(request.messages) };
  if (request.instructions.length > 0) {
    body.systemInstruction = { parts: request.instructions.map((instruction) => ({ text: instruction.text })) };
  }
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
    body.toolConfig = { functionCallingConfig: functionCallingConfig(request.toolChoice) };
  }
  const generationConfig = convertGenerationConfig(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function functionCallingConfig(choice: ToolChoice): NonNullable<GeminiRequest['toolConfig']>['functionCallingConfig'] {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.name] };
    default:
      return assertNever(choice);
  }
}

/** Sampling settings whose internal names are already Gemini's: copied as they are. */
const sameNamedSettings = ['temperature', 'topP', 'topK', 'maxOutputTokens', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;

function convertGenerationConfig(request: ModelRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  for (const key of sameNamedSettings) if (request[key] !== undefined) config[key] = request[key];
  if (request.stopSequences.length > 0) config.stopSequences = request.stopSequences;
  const format = request.responseFormat;
  switch (format.type) {
    case 'text':
      break;
    case 'json_object':
      config.responseMimeType = 'application/json';
      break;
    case 'json_schema':
      config.responseMimeType = 'application/json';
      config.responseJsonSchema = format.schema;
      break;
    default:
      assertNever(format);
  }
  const asked = thinkingBudget(request.reasoning);
  // Gemini counts thoughts against maxOutputTokens; a budget above the cap or the caller's ceiling is not asked for.
  const cap = Math.min(request.maxOutputTokens ?? Infinity, request.outputTokenCeiling ?? Infinity);
  const budget = asked !== undefined && asked > cap ? cap : asked;
  // includeThoughts makes Gemini stream thought summaries, which become reasoning deltas.
  if (budget !== undefined) config.thinkingConfig = budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
  return config;
}

/**
 * Messages as Gemini contents. Gemini wants user and model turns to alternate, so consecutive messages of
 * one role (tool results followed by user text) merge into one content; messages left without parts (only
 * reasoning, say) are skipped, because Gemini refuses a content with no parts.
 */
function convertMessages(messages: ConversationMessage[]): GeminiContent[] {
  const namesByCallId = toolNamesByCallId(messages);
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const role = geminiRole(message.role);
    const parts = message.content.flatMap((part) => convertPart(part, namesByCallId));
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  for (const content of contents) if (content.role === 'model') signFirstFunctionCall(content.parts);
  return contents;
}

function geminiRole(role: ConversationMessage['role']): GeminiRole {
  switch (role) {
    case 'user':
      return 'user';
    case 'assistant':
      return 'model';
    default:
      return assertNever(role);
  }
}

/** Gemini 3 validates the first functionCall of each model step; a step with no signature at all gets the escape value. */
function signFirstFunctionCall(parts: GeminiPart[]): void {
  const calls = parts.filter((part) => 'functionCall' in part);
  if (calls.length === 0 || calls.some((call) => call.thoughtSignature)) return;
  calls[0].thoughtSignature = skipThoughtSignature;
}

/** Function names by call ID: Gemini matches a functionResponse to its call by name. */
function toolNamesByCallId(messages: Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) for (const part of message.content) if (part.type === 'tool_call') names.set(part.id, part.name);
  return names;
}

function convertPart(part: ContentPart, namesByCallId: Map<string, string>): GeminiPart[] {
  switch (part.type) {
    case 'text':
      return [{ text: part.text }];
    case 'image':
      return [convertMedia(part.source, 'image/jpeg')];
    case 'file':
      return [convertMedia(part.source, 'application/octet-stream')];
    case 'tool_call':
      return [
        {
          functionCall: { name: part.name, args: parseArguments(part.arguments, part.id) },
          ...(part.signature && { thoughtSignature: part.signature }),
        },
      ];
    case 'tool_result':
      return [convertToolResult(part, namesByCallId)];
    case 'reasoning':
      return [];
    default:
      return assertNever(part);
  }
}

/** URLs go as fileData: Gemini fetches only URLs it can reach (its File API, YouTube, public HTTP). */
function convertMedia(source: MediaSource, fallbackMimeType: string): GeminiPart {
  switch (source.kind) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data } };
    case 'url':
      return { fileData: { mimeType: guessMimeType(source.url) ?? fallbackMimeType, fileUri: source.url } };
    default:
      return assertNever(source);
  }
}

/** Extensions of the media types Gemini accepts (https://ai.google.dev/gemini-api/docs/file-input-methods). */
const mimeTypeByExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

export function guessMimeType(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0];
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension ? mimeTypeByExtension[extension] : undefined;
}

/** Gemini takes arguments as an object, not text; blank text is a call without arguments. */
function parseArguments(text: string, callId: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = asRecord(parseJson(text));
  if (!value) {
    throw new GatewayError('invalid_request', `The arguments of tool call '${callId}' are not a JSON object, which Gemini requires.`, {
      param: 'messages',
    });
  }
  return value;
}

/**
 * A tool result as a functionResponse. Its text becomes `{content: text}` (or the object itself when the
 * text is a JSON object), `{error: text}` for a failed call. Images and files inside a tool result are
 * dropped: functionResponse carries JSON only.
 */
function convertToolResult(part: ToolResultPart, namesByCallId: Map<string, string>): GeminiPart {
  const name = part.name ?? namesByCallId.get(part.callId);
  if (name === undefined) {
    throw new GatewayError(
      'invalid_request',
      `The tool result for call '${part.callId}' names no function and no earlier tool call has that ID; Gemini needs the function name.`,
      { param: 'messages' },
    );
  }
  const text = part.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  if (part.isError) return { functionResponse: { name, response: { error: text } } };
  return { functionResponse: { name, response: asRecord(parseJson(text)) ?? { content: text } } };
}
