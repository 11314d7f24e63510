// Readers of what an upstream received, one per wire format, each returning the same plain view (the
// conversation, the system prompt, the last tool call with its result, the image): a protocol suite
// states its expectations once and every provider speaking that wire format is held to them.
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../fake-upstream.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a reader needs of a received request; fakes that record more still fit. */
export type Received = Pick<RecordedRequest, 'url' | 'headers' | 'json'>;

export type WireName = 'openai-chat' | 'anthropic-messages' | 'gemini' | 'bedrock-converse';

/** The last tool call in a conversation and the result that answers it, as the upstream got them. */
export interface ToolExchange {
  call: { id?: string; name: string; input: unknown; signature?: string };
  /** `content` is the result decoded: JSON text parsed, one text block unwrapped, a Gemini response as is. */
  result: { callId?: string; name?: string; content: unknown };
}

export interface WireReader {
  name: WireName;
  /** Role and text per message, in order; system instructions left out. */
  history(request: Received): Array<[role: 'user' | 'assistant', text: string]>;
  system(request: Received): string | undefined;
  toolExchange(request: Received): ToolExchange;
  /** The first image of the last user message, as media type and base64 data. */
  image(request: Received): { mediaType: string; data: string };
  /** The call asked for a stream. */
  streamed(request: Received): boolean;
}

const body = (request: Received) => request.json as Body;

/** JSON text parsed, anything else as it is. */
function decodeText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A result made of exactly one text block (Anthropic's `{type: 'text'}`, Converse's `{text}` or `{json}`). */
function decodeBlocks(content: unknown): unknown {
  if (typeof content === 'string') return decodeText(content);
  assert.ok(Array.isArray(content) && content.length === 1, `one block of result content, got ${JSON.stringify(content)}`);
  const [block] = content as Body[];
  if (block!.json !== undefined) return block!.json;
  assert.equal(typeof block!.text, 'string', `a text block, got ${JSON.stringify(block)}`);
  return decodeText(block!.text);
}

const last = <T>(items: T[], test: (item: T) => boolean): T => {
  const found = [...items].reverse().find(test);
  assert.ok(found, 'the upstream request holds what the test looks for');
  return found;
};

function dataUrl(url: string): { mediaType: string; data: string } {
  const match = /^data:([^;]+);base64,(.+)$/.exec(url);
  assert.ok(match, `an image as a data URL, got ${url.slice(0, 60)}`);
  return { mediaType: match[1]!, data: match[2]! };
}

const streamInBody = (request: Received) => body(request).stream === true;

export const openaiChatReader: WireReader = {
  name: 'openai-chat',
  streamed: streamInBody,
  history: (request) =>
    (body(request).messages as Body[])
      .filter((message) => message.role === 'user' || message.role === 'assistant')
      .map((message) => [message.role, typeof message.content === 'string' ? message.content : (message.content ?? []).map((part: Body) => part.text ?? '').join('')]),
  system: (request) => (body(request).messages as Body[]).find((message) => message.role === 'system')?.content,
  toolExchange(request) {
    const messages = body(request).messages as Body[];
    const call = last(messages, (message) => message.role === 'assistant' && message.tool_calls?.length).tool_calls[0];
    const result = last(messages, (message) => message.role === 'tool');
    assert.equal(typeof result.content, 'string');
    return {
      call: { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) },
      result: { callId: result.tool_call_id, content: decodeText(result.content) },
    };
  },
  image(request) {
    const user = last(body(request).messages as Body[], (message) => message.role === 'user');
    return dataUrl(user.content.find((part: Body) => part.type === 'image_url').image_url.url);
  },
};

const anthropicText = (content: string | Body[]) => (typeof content === 'string' ? content : content.map((block) => block.text ?? '').join(''));

export const anthropicMessagesReader: WireReader = {
  name: 'anthropic-messages',
  streamed: streamInBody,
  history: (request) => (body(request).messages as Body[]).map((message) => [message.role, anthropicText(message.content)]),
  system: (request) => (body(request).system === undefined ? undefined : anthropicText(body(request).system)),
  toolExchange(request) {
    const messages = body(request).messages as Body[];
    const use = last(messages, (message) => message.role === 'assistant' && Array.isArray(message.content) && message.content.some((block: Body) => block.type === 'tool_use'))
      .content.find((block: Body) => block.type === 'tool_use');
    const result = last(messages, (message) => message.role === 'user' && Array.isArray(message.content) && message.content.some((block: Body) => block.type === 'tool_result'))
      .content.find((block: Body) => block.type === 'tool_result');
    return { call: { id: use.id, name: use.name, input: use.input }, result: { callId: result.tool_use_id, content: decodeBlocks(result.content) } };
  },
  image(request) {
    const user = last(body(request).messages as Body[], (message) => message.role === 'user');
    const { source } = user.content.find((block: Body) => block.type === 'image');
    assert.equal(source.type, 'base64');
    return { mediaType: source.media_type, data: source.data };
  },
};

export const geminiReader: WireReader = {
  name: 'gemini',
  streamed: (request) => request.url.includes(':streamGenerateContent'),
  history: (request) =>
    (body(request).contents as Body[]).map((content) => [
      content.role === 'model' ? 'assistant' : 'user',
      (content.parts as Body[]).filter((part) => !part.thought).map((part) => part.text ?? '').join(''),
    ]),
  system: (request) => (body(request).systemInstruction?.parts as Body[] | undefined)?.map((part) => part.text ?? '').join(''),
  toolExchange(request) {
    const contents = body(request).contents as Body[];
    const callPart = last(contents, (content) => content.parts.some((part: Body) => part.functionCall)).parts.find((part: Body) => part.functionCall);
    const response = last(contents, (content) => content.parts.some((part: Body) => part.functionResponse)).parts.find((part: Body) => part.functionResponse).functionResponse;
    return {
      call: { id: callPart.functionCall.id, name: callPart.functionCall.name, input: callPart.functionCall.args, signature: callPart.thoughtSignature },
      result: { callId: response.id, name: response.name, content: response.response },
    };
  },
  image(request) {
    const user = last(body(request).contents as Body[], (content) => content.role === 'user');
    const { inlineData } = user.parts.find((part: Body) => part.inlineData);
    return { mediaType: inlineData.mimeType, data: inlineData.data };
  },
};

export const bedrockConverseReader: WireReader = {
  name: 'bedrock-converse',
  streamed: (request) => request.url.endsWith('/converse-stream'),
  history: (request) => (body(request).messages as Body[]).map((message) => [message.role, (message.content as Body[]).map((block) => block.text ?? '').join('')]),
  system: (request) => (body(request).system as Body[] | undefined)?.map((block) => block.text ?? '').join(''),
  toolExchange(request) {
    const messages = body(request).messages as Body[];
    const { toolUse } = last(messages, (message) => message.content.some((block: Body) => block.toolUse)).content.find((block: Body) => block.toolUse);
    const { toolResult } = last(messages, (message) => message.content.some((block: Body) => block.toolResult)).content.find((block: Body) => block.toolResult);
    return { call: { id: toolUse.toolUseId, name: toolUse.name, input: toolUse.input }, result: { callId: toolResult.toolUseId, content: decodeBlocks(toolResult.content) } };
  },
  image(request) {
    const user = last(body(request).messages as Body[], (message) => message.role === 'user');
    const { image } = user.content.find((block: Body) => block.image);
    return { mediaType: `image/${image.format}`, data: image.source.bytes };
  },
};
