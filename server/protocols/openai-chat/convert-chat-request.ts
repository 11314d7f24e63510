import type { ContentPart, Instruction, Message, ModelRequest, ResponseFormat, ToolChoice } from '../../core/internal-representation.js';
import { placeSystemText } from '../../core/fold-system-messages.js';
import { gatewayEffort } from '../../core/reasoning-budget.js';
import { decodeToolCallId } from '../../core/tool-call-signature.js';
import { GatewayError } from '../../core/gateway-error.js';
import { toMediaSource } from './parse-data-url.js';
import type { ChatCompletionRequest, ChatContentPart, ChatMessage } from './wire-types.js';

/**
 * Chat Completions request → internal request. System and developer messages become instructions (later
 * ones stay in place as system messages);
 * `tool` messages become tool results inside a user turn (consecutive ones share the turn), which is how
 * Anthropic and Gemini model them.
 */
export function convertChatRequest(body: ChatCompletionRequest): ModelRequest {
  const instructions: Instruction[] = [];
  const messages: Message[] = [];
  body.messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        placeSystemText(instructions, messages, textOf(message, param));
        break;
      case 'user':
        messages.push({ role: 'user', content: userParts(message, param) });
        break;
      case 'assistant':
        messages.push({ role: 'assistant', content: assistantParts(message) });
        break;
      case 'tool': {
        const result: ContentPart = {
          type: 'tool_result',
          callId: decodeToolCallId(message.tool_call_id ?? missing(`${param}.tool_call_id`)).id,
          content: [{ type: 'text', text: textOf(message, param) }],
        };
        const previous = messages.at(-1);
        if (previous?.role === 'user' && previous.content.every((part) => part.type === 'tool_result')) previous.content.push(result);
        else messages.push({ role: 'user', content: [result] });
        break;
      }
      case 'function':
        throw new GatewayError('invalid_request', "The deprecated 'function' role is not supported; use 'tool' messages.", {
          param: `${param}.role`,
        });
      default:
        throw new GatewayError('invalid_request', `Unknown role '${String(message.role)}'.`, { param: `${param}.role` });
    }
  });

  const tools = (body.tools ?? []).map(({ function: fn }) => ({
    name: fn.name,
    description: fn.description,
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    strict: fn.strict ?? undefined,
  }));
  const toolChoice = toToolChoice(body.tool_choice);
  if (toolChoice.type === 'tool' && !tools.some((tool) => tool.name === toolChoice.name)) {
    throw new GatewayError('invalid_request', `tool_choice names '${toolChoice.name}', which is not in tools.`, { param: 'tool_choice' });
  }

  return {
    model: body.model,
    instructions,
    messages,
    tools,
    toolChoice,
    parallelToolCalls: body.parallel_tool_calls,
    responseFormat: toResponseFormat(body.response_format),
    maxOutputTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    stopSequences: body.stop == null ? [] : Array.isArray(body.stop) ? body.stop : [body.stop],
    seed: body.seed ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    reasoning: body.reasoning_effort ? { effort: gatewayEffort(body.reasoning_effort) } : undefined,
    user: body.user,
    metadata: body.metadata ?? undefined,
  };
}

function textOf(message: ChatMessage, param: string): string {
  if (message.content == null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part, index) => {
      if (part.type !== 'text') {
        throw new GatewayError('invalid_request', `Only text parts are allowed in ${message.role} messages.`, {
          param: `${param}.content[${index}].type`,
        });
      }
      return part.text ?? '';
    })
    .join('');
}

function userParts(message: ChatMessage, param: string): ContentPart[] {
  if (message.content == null) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part, index) => userPart(part, `${param}.content[${index}]`));
}

function userPart(part: ChatContentPart, param: string): ContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text ?? missing(`${param}.text`) };
    case 'image_url': {
      const url = part.image_url?.url ?? missing(`${param}.image_url.url`);
      return { type: 'image', source: toMediaSource(url), detail: part.image_url?.detail };
    }
    case 'file': {
      const data = part.file?.file_data;
      if (!data) {
        throw new GatewayError('invalid_request', 'File parts need inline file_data; file IDs are not supported.', {
          param: `${param}.file.file_data`,
        });
      }
      return { type: 'file', source: toMediaSource(data), filename: part.file?.filename };
    }
    case 'input_audio':
    case 'refusal':
      throw new GatewayError('invalid_request', `Content parts of type '${part.type}' are not supported.`, { param: `${param}.type` });
    default:
      throw new GatewayError('invalid_request', `Unknown content part type '${String(part.type)}'.`, { param: `${param}.type` });
  }
}

function assistantParts(message: ChatMessage): ContentPart[] {
  const parts: ContentPart[] = [];
  if (message.reasoning_content) parts.push({ type: 'reasoning', text: message.reasoning_content });
  const text = typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join('');
  if (text) parts.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    const { id, signature } = decodeToolCallId(call.id);
    parts.push({ type: 'tool_call', id, name: call.function.name, arguments: call.function.arguments, ...(signature ? { signature } : {}) });
  }
  return parts;
}

function toToolChoice(choice: ChatCompletionRequest['tool_choice']): ToolChoice {
  if (choice === undefined || choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'required' };
  return { type: 'tool', name: choice.function.name };
}

function toResponseFormat(format: ChatCompletionRequest['response_format']): ResponseFormat {
  switch (format?.type) {
    case undefined:
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return {
        type: 'json_schema',
        name: format.json_schema?.name ?? missing('response_format.json_schema'),
        schema: format.json_schema?.schema ?? {},
        strict: format.json_schema?.strict ?? undefined,
        description: format.json_schema?.description,
      };
  }
}

function missing(param: string): never {
  throw new GatewayError('invalid_request', `Missing required parameter: '${param}'.`, { param, code: 'missing_required_parameter' });
}
