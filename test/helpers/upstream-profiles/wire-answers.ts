// What each wire format's fake replays, from the recordings in test/fixtures/upstream-recorded (Bedrock has
// none: its answers are scripted as ConverseStream events, saying what the Anthropic recordings say), and
// the text, calls and usage a client reads from them.
import { textItems, toolUseItems } from '../fake-bedrock.js';
import { fixtureChunks, fixtureJson } from '../upstream-fixtures.js';
import type { UpstreamSide } from './profile.js';
import { fixture, paced } from './replies.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Answers = Pick<UpstreamSide, 'text' | 'toolCall' | 'refusal'>;

const openaiStreamText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).choices[0]?.delta.content ?? '')
  .join('');
const openaiCall = fixtureJson<Body>('openai-chat/non-stream-tool-calls.json').choices[0].message.tool_calls[0].function;
const openaiError = (status: number) => (message: string) => fixtureReply(status, { error: { message, type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } });

export const openaiChatAnswers: Answers = {
  text: {
    stream: { reply: fixture('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat'), text: openaiStreamText },
    whole: { reply: fixture('openai-chat/non-stream-text.json', 'openai-chat'), text: fixtureJson<Body>('openai-chat/non-stream-text.json').choices[0].message.content },
    usage: { input: 16, output: 300 },
  },
  toolCall: {
    stream: { reply: fixture('openai-chat/stream-tool-call-include-usage.chunks.txt', 'openai-chat'), name: 'multiply', input: { a: 1231, b: 2331 } },
    whole: { reply: fixture('openai-chat/non-stream-tool-calls.json', 'openai-chat'), name: openaiCall.name, input: JSON.parse(openaiCall.arguments) },
    usage: { input: 54, output: 20 },
  },
  refusal: { badRequest: openaiError(400), badCredentials: openaiError(401) },
};

export const anthropicStreamText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const anthropicError = (status: number) => (message: string) => fixtureReply(status, { type: 'error', error: { type: 'invalid_request_error', message } });

export const anthropicAnswers: Answers = {
  text: {
    stream: { reply: fixture('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages'), text: anthropicStreamText },
    whole: { reply: fixture('anthropic-messages/non-stream-text.json', 'anthropic-messages'), text: fixtureJson<Body>('anthropic-messages/non-stream-text.json').content[0].text },
    usage: { input: 12, output: 30 },
  },
  toolCall: {
    stream: { reply: fixture('anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', 'anthropic-messages'), name: 'weather', input: { location: 'San Francisco' } },
    whole: { reply: fixture('anthropic-messages/non-stream-tool-use.json', 'anthropic-messages'), name: 'weather', input: { location: 'San Francisco' } },
    usage: { input: 843, output: 28 },
  },
  refusal: { badRequest: anthropicError(400), badCredentials: anthropicError(401) },
};

const geminiSignature = (parts: Body[]) => parts.find((part) => part.functionCall)!.thoughtSignature as string;
const geminiError = (status: number) => (message: string) => fixtureReply(status, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

export const geminiAnswers: Answers = {
  text: {
    // Paced, so that a client sees the stream arrive in several chunks.
    stream: { reply: paced(fixture('gemini/stream-text.chunks.txt', 'gemini'), 1), text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y' },
    whole: { reply: fixture('gemini/non-stream-text.json', 'gemini'), text: fixtureJson<Body>('gemini/non-stream-text.json').candidates[0].content.parts[0].text },
    // Gemini's thoughts count as output tokens.
    usage: { input: 9, output: 23 + 185 },
  },
  toolCall: {
    stream: {
      reply: fixture('gemini/stream-function-call.chunks.txt', 'gemini'),
      name: 'weather',
      input: { location: 'San Francisco' },
      signature: geminiSignature((JSON.parse(fixtureChunks('gemini/stream-function-call.chunks.txt')[0]!) as Body).candidates[0].content.parts),
    },
    whole: {
      reply: fixture('gemini/non-stream-function-call.json', 'gemini'),
      name: 'weather',
      input: { location: 'San Francisco' },
      signature: geminiSignature(fixtureJson<Body>('gemini/non-stream-function-call.json').candidates[0].content.parts),
    },
    usage: { input: 29, output: 15 + 45 },
  },
  refusal: { badRequest: geminiError(400), badCredentials: geminiError(401) },
};

// Bedrock forwards nothing, so a whole answer is never asked for: both are the stream.
const bedrockText = { reply: { bedrock: { items: textItems(anthropicStreamText, { input: 12, output: 30 }) } }, text: anthropicStreamText };
const bedrockCall = {
  reply: { bedrock: { items: toolUseItems('tooluse_weather0001', 'weather', '{"location":"San Francisco"}', { input: 843, output: 28 }) } },
  name: 'weather',
  input: { location: 'San Francisco' },
};

export const bedrockAnswers: Answers = {
  text: { stream: bedrockText, whole: bedrockText, usage: { input: 12, output: 30 } },
  toolCall: { stream: bedrockCall, whole: bedrockCall, usage: { input: 843, output: 28 } },
  refusal: {
    badRequest: (message) => ({ bedrock: { status: 400, errorType: 'ValidationException', message } }),
    // Bedrock refuses credentials with 403 (API_runtime_ConverseStream.html, AccessDeniedException).
    badCredentials: (message) => ({ bedrock: { status: 403, errorType: 'AccessDeniedException', message } }),
  },
};

function fixtureReply(status: number, json: unknown) {
  return { fake: { status, json } };
}
