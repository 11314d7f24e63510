import type { ContentPart, Instruction, Message, ModelRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../core/internal-representation.js';
import { placeSystemText } from '../../core/fold-system-messages.js';
import { gatewayEffort } from '../../core/reasoning-budget.js';
import { decodeToolCallId } from '../../core/tool-call-signature.js';
import { decodeReasoningState } from './reasoning-state.js';
import { GatewayError } from '../../core/gateway-error.js';
import { toMediaSource } from '../openai-chat/parse-data-url.js';
import { customInputAsArguments, customToolAsFunction, ResponsesToolNames } from './responses-tool-names.js';
import type { ResponsesCreateRequest, ResponsesFunctionCall, ResponsesFunctionCallOutput, ResponsesFunctionTool, ResponsesInputContent } from './wire-types.js';
import type { ResponsesInputItem, ResponsesInputMessage, ResponsesReasoning, ResponsesTextFormat } from './wire-types.js';

/** The conversation before this request, which the caller rebuilds from `previous_response_id`. */
export interface ResponsesHistory {
  /** Items of earlier turns (inputs and outputs, in order) rebuilt from `previous_response_id`; [] if none. */
  items: ResponsesInputItem[];
  /** Resolves `item_reference` ids (looked up in stored responses by the caller). */
  lookup(id: string): ResponsesInputItem | undefined;
}

type MediaPart = Extract<ContentPart, { type: 'text' | 'image' | 'file' }>;

/**
 * Responses request → internal request. The history comes first, then `input`. Only this request's
 * `instructions` count (OpenAI does not carry them over `previous_response_id`); system and developer
 * messages become instructions after them. Consecutive assistant items (text, function calls, reasoning)
 * form one assistant turn and consecutive `function_call_output`s one user turn, as Anthropic and Gemini
 * need. https://platform.openai.com/docs/api-reference/responses/create
 *
 * @example
 * convertResponsesRequest({ model: 'gpt-5', input: 'Hi', instructions: 'Be brief.' }, { items: [], lookup: () => undefined });
 * // → { model: 'gpt-5', instructions: [{ text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], … }
 */
export function convertResponsesRequest(body: ResponsesCreateRequest, history: ResponsesHistory): ModelRequest {
  const transcript = new Transcript(history.lookup);
  try {
    for (const item of history.items) transcript.add(item, 'previous_response_id');
  } catch (error) {
    // The client never sent these items, so a field path inside them would mean nothing to it.
    if (!(error instanceof GatewayError)) throw error;
    const message = `The conversation of previous_response_id cannot be continued: ${error.message}`;
    throw new GatewayError('invalid_request', message, { param: 'previous_response_id', cause: error });
  }
  if (typeof body.input === 'string') transcript.messages.push({ role: 'user', content: [{ type: 'text', text: body.input }] });
  else if (Array.isArray(body.input)) body.input.forEach((item, index) => transcript.add(item, `input[${index}]`));
  else if (body.input != null) throw invalid('input must be a string or an array of items.', 'input');

  const tools = toTools(body.tools);
  return {
    model: body.model,
    instructions: [...(body.instructions ? [{ text: body.instructions }] : []), ...transcript.instructions],
    messages: transcript.messages,
    tools,
    toolChoice: toToolChoice(body.tool_choice, tools),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    responseFormat: toResponseFormat(body.text?.format),
    maxOutputTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    stopSequences: [],
    reasoning: body.reasoning?.effort ? { effort: gatewayEffort(body.reasoning.effort) } : undefined,
    user: body.user ?? body.safety_identifier ?? undefined,
    metadata: body.metadata ?? undefined,
  };
}

/** Instructions and turns built item by item, remembering function names for the results that follow. */
class Transcript {
  readonly instructions: Instruction[] = [];
  readonly messages: Message[] = [];
  /** Gemini matches a function result by name, which `function_call_output` does not repeat. */
  private readonly callNames = new Map<string, string>();

  constructor(private readonly lookup: ResponsesHistory['lookup']) {}

  add(item: ResponsesInputItem, param: string, references: readonly string[] = []): void {
    switch (item.type) {
      case 'message':
        return this.addMessage(item, param);
      case 'function_call':
        return this.addFunctionCall(item, param);
      case 'function_call_output':
        return this.addFunctionCallOutput(item, param);
      case 'custom_tool_call':
        return this.addFunctionCall(
          { type: 'function_call', call_id: item.call_id, name: item.name, namespace: item.namespace ?? undefined, arguments: customInputAsArguments(item.input) },
          param,
        );
      case 'custom_tool_call_output':
        return this.addFunctionCallOutput({ type: 'function_call_output', call_id: item.call_id, output: item.output }, param);
      case 'reasoning':
        return this.addReasoning(item);
      case 'item_reference':
        return this.addReference(item.id, param, references);
      case undefined:
      case null:
        // Both a message and an item reference may leave out their type.
        if ('role' in item) return this.addMessage(item, param);
        if ('id' in item) return this.addReference(item.id, param, references);
        return missing(`${param}.role`);
      default:
        // The calls of hosted tools, compaction and the like (the contract lists them): only OpenAI ran those
        // tools or can read these items, so another upstream goes without them.
        if (typeof (item as { type?: unknown }).type === 'string') return;
        throw invalid(`Unknown input item type '${typeOf(item)}'.`, `${param}.type`);
    }
  }

  private addMessage(message: ResponsesInputMessage, param: string): void {
    const content = message.content ?? missing(`${param}.content`);
    const parts = typeof content === 'string' ? [{ type: 'input_text' as const, text: content }] : content;
    const at = (index: number) => (typeof content === 'string' ? `${param}.content` : `${param}.content[${index}]`);
    switch (message.role) {
      case 'system':
      case 'developer': {
        placeSystemText(this.instructions, this.messages, parts.map((part, index) => instructionText(part, at(index))).join(''));
        return;
      }
      case 'user':
        this.messages.push({ role: 'user', content: parts.map((part, index) => mediaPart(part, at(index))) });
        return;
      case 'assistant':
        return this.pushAssistant(
          parts.map((part, index) => assistantText(part, at(index))).filter(Boolean).map((text) => ({ type: 'text', text })),
        );
      default:
        throw invalid(`Unknown role '${String(message.role)}'.`, `${param}.role`);
    }
  }

  private addFunctionCall(call: ResponsesFunctionCall, param: string): void {
    const { id, signature } = decodeToolCallId(call.call_id ?? missing(`${param}.call_id`));
    const name = ResponsesToolNames.upstreamName(call.name ?? missing(`${param}.name`), call.namespace);
    this.callNames.set(id, name);
    const args = call.arguments ?? missing(`${param}.arguments`);
    this.pushAssistant([{ type: 'tool_call', id, name, arguments: args, ...(signature ? { signature } : {}) }]);
  }

  private addFunctionCallOutput(output: ResponsesFunctionCallOutput, param: string): void {
    const callId = decodeToolCallId(output.call_id ?? missing(`${param}.call_id`)).id;
    const content: MediaPart[] =
      typeof output.output === 'string'
        ? [{ type: 'text', text: output.output }]
        : (output.output ?? missing(`${param}.output`)).map((part, index) => mediaPart(part, `${param}.output[${index}]`));
    const name = this.callNames.get(callId);
    const result: ContentPart = { type: 'tool_result', callId, content, ...(name ? { name } : {}) };
    const previous = this.messages.at(-1);
    if (previous?.role === 'user' && previous.content.every((part) => part.type === 'tool_result')) previous.content.push(result);
    else this.messages.push({ role: 'user', content: [result] });
  }

  private addReasoning(reasoning: ResponsesReasoning): void {
    // Models that show raw reasoning put it in `content`; the summary is what OpenAI's own models give.
    const summary = (reasoning.summary ?? []).map((part) => part.text);
    const text = (summary.length ? summary : (reasoning.content ?? []).map((part) => part.text)).join('\n\n');
    // OpenAI's own encrypted reasoning means nothing to another upstream; only the gateway's state is kept.
    const state = reasoning.encrypted_content ? decodeReasoningState(reasoning.encrypted_content) : undefined;
    // An empty item (no summary asked for, no state) carries nothing to send back.
    if (!text && !state?.redacted) return;
    this.pushAssistant([{ type: 'reasoning', text, ...state }]);
  }

  private addReference(id: string | undefined, param: string, references: readonly string[]): void {
    if (typeof id !== 'string') return missing(`${param}.id`);
    // A stored item could itself be a reference; a chain that comes back to itself is as unknown as a missing one.
    const item = references.includes(id) ? undefined : this.lookup(id);
    if (!item) throw invalid(`Item with id '${id}' not found.`, `${param}.id`);
    this.add(item, param, [...references, id]);
  }

  private pushAssistant(parts: ContentPart[]): void {
    if (parts.length === 0) return;
    const previous = this.messages.at(-1);
    if (previous?.role === 'assistant') previous.content.push(...parts);
    else this.messages.push({ role: 'assistant', content: parts });
  }
}

/** A part of a user message or of a function output. */
function mediaPart(part: ResponsesInputContent, param: string): MediaPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text ?? missing(`${param}.text`) };
    case 'input_image': {
      // `original` (full resolution) is newer than the gateway's scale, whose most is `high`.
      const detail = part.detail ? { detail: part.detail === 'original' ? ('high' as const) : part.detail } : {};
      if (part.image_url) return { type: 'image', source: toMediaSource(part.image_url), ...detail };
      if (part.file_id) throw fileIdsUnsupported(`${param}.file_id`);
      return missing(`${param}.image_url`);
    }
    case 'input_file': {
      const filename = part.filename ? { filename: part.filename } : {};
      if (part.file_data) {
        const source = toMediaSource(part.file_data);
        if (source.kind !== 'base64') throw invalid("file_data must be a base64 'data:' URL.", `${param}.file_data`);
        return { type: 'file', source, ...filename };
      }
      if (part.file_url) return { type: 'file', source: { kind: 'url', url: part.file_url }, ...filename };
      if (part.file_id) throw fileIdsUnsupported(`${param}.file_id`);
      return missing(`${param}.file_data`);
    }
    case 'refusal':
      throw invalid('Refusal parts are only allowed in assistant messages.', `${param}.type`);
    default:
      throw unknownPart(part, param);
  }
}

/** Echoed assistant output is text to the upstream, a refusal included. */
function assistantText(part: ResponsesInputContent, param: string): string {
  switch (part.type) {
    case 'output_text':
    case 'input_text':
      return part.text ?? missing(`${param}.text`);
    case 'refusal':
      return part.refusal ?? missing(`${param}.refusal`);
    case 'input_image':
    case 'input_file':
      throw invalid(`Content parts of type '${part.type}' are not allowed in assistant messages.`, `${param}.type`);
    default:
      throw unknownPart(part, param);
  }
}

function instructionText(part: ResponsesInputContent, param: string): string {
  if (part.type === 'input_text' || part.type === 'output_text') return part.text ?? missing(`${param}.text`);
  throw invalid('Only text parts are allowed in system and developer messages.', `${param}.type`);
}

/**
 * Function tools as they are; a namespace's tools and custom tools as plain functions
 * (responses-tool-names.ts). Hosted tools are left out here: whether they are dropped or refused depends on
 * the model (hostedToolsOf).
 */
function toTools(tools: ResponsesCreateRequest['tools']): ToolDefinition[] {
  return (tools ?? []).flatMap((tool): ToolDefinition[] => {
    switch (tool.type) {
      case 'function':
        return [functionTool(tool)];
      case 'custom':
        return [customToolAsFunction(tool.name, tool.description, tool.format)];
      case 'namespace':
        return tool.tools.map((member) => {
          const name = ResponsesToolNames.upstreamName(member.name, tool.name);
          return member.type === 'custom' ? customToolAsFunction(name, member.description, member.format) : { ...functionTool(member), name };
        });
      default:
        return [];
    }
  });
}

function functionTool(tool: ResponsesFunctionTool): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.description != null ? { description: tool.description } : {}),
    parameters: tool.parameters ?? { type: 'object', properties: {} },
    ...(tool.strict != null ? { strict: tool.strict } : {}),
  };
}

function toToolChoice(choice: ResponsesCreateRequest['tool_choice'], tools: ToolDefinition[]): ToolChoice {
  if (choice == null) return { type: 'auto' };
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (typeof choice === 'string') throw invalid(`Unknown tool_choice '${String(choice)}'.`, 'tool_choice');
  switch (choice.type) {
    case 'function':
    case 'custom': {
      const name = choice.name ?? missing('tool_choice.name');
      if (!tools.some((tool) => tool.name === name)) throw invalid(`tool_choice names '${name}', which is not in tools.`, 'tool_choice');
      return { type: 'tool', name };
    }
    default:
      throw invalid(`tool_choice of type '${typeOf(choice)}' is not supported.`, 'tool_choice.type');
  }
}

function toResponseFormat(format: ResponsesTextFormat | undefined): ResponseFormat {
  switch (format?.type) {
    case undefined:
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return {
        type: 'json_schema',
        name: format.name ?? missing('text.format.name'),
        schema: format.schema ?? missing('text.format.schema'),
        ...(format.strict != null ? { strict: format.strict } : {}),
        ...(format.description != null ? { description: format.description } : {}),
      };
    default:
      throw invalid(`Unknown text.format type '${typeOf(format)}'.`, 'text.format.type');
  }
}

const invalid = (message: string, param: string) => new GatewayError('invalid_request', message, { param });
/** The `type` of a value the wire types rule out: validation may let it through, and the message should name it. */
const typeOf = (value: unknown) => String((value as { type: unknown }).type);
const unknownPart = (part: never, param: string) => invalid(`Unknown content part type '${typeOf(part)}'.`, `${param}.type`);
const fileIdsUnsupported = (param: string) => invalid('file IDs are not supported; send the content inline or by URL.', param);

const missing = (param: string): never => {
  throw new GatewayError('invalid_request', `Missing required parameter: '${param}'.`, { param, code: 'missing_required_parameter' });
};
