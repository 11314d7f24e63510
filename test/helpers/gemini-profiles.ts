// What the Gemini-client tests need to know per upstream type: how to start a gateway whose model is
// served by it, what the fake upstream replays, and how to read what it received in its own protocol.
import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import type { ProviderType } from '../../server/config/config-schema.js';
import { assertMatchesSchema } from './contract-schemas.js';
import type { FakeReply, FakeUpstream, RecordedRequest } from './fake-upstream.js';
import { startGateway } from './start-gateway.js';
import { fixtureChunks, fixtureJson } from './upstream-fixtures.js';
import { startUpstreamGateway, upstreamKey, upstreamModel } from './upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type GeminiChunk = components['schemas']['GeminiGenerateContentResponse'];

export const body = (request: RecordedRequest) => request.json as Body;

const openaiStreamText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).choices[0]?.delta.content ?? '')
  .join('');
const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const geminiStreamText = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';
const geminiNonStreamText = fixtureJson<Body>('gemini/non-stream-text.json').candidates[0].content.parts[0].text as string;

export interface GeminiProfile {
  type: ProviderType;
  /** The model ID clients send. */
  model: string;
  /** The text the client reads for "Hello gateway", streamed and not. */
  text: { streamed: string; whole: string };
  /**
   * What the fake upstream replays: to a plain question streamed by the client or not, and a call of
   * `toolName` to a non-stream request. Absent for the built-in model, which answers by itself.
   */
  replies?: { stream: FakeReply; nonStream: FakeReply; toolCall: FakeReply };
  toolName: string;
  /** What the upstream received for a plain question (path, key, model). */
  reached(request: RecordedRequest): void;
  /** The conversation the upstream received, as role and text per message (system instructions left out). */
  history(request: RecordedRequest): Array<[role: 'user' | 'assistant', text: string]>;
  /** The call and its result arrived as one matched pair, the result's content being `result`. */
  toolResultSent(request: RecordedRequest, result: Record<string, unknown>): void;
  /** The upstream's own count (Anthropic, Gemini), or none when the gateway estimates. */
  countReply?: { reply: FakeReply; path: string; total: number };
}

const openaiProfile = (type: 'openai' | 'openai-compatible'): GeminiProfile => ({
  type,
  model: 'test-model',
  text: { streamed: openaiStreamText, whole: openaiStreamText },
  replies: {
    stream: { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', chunkDelayMs: 1 },
    nonStream: { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' },
    toolCall: { fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' },
  },
  toolName: 'multiply',
  reached(request) {
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${upstreamKey}`);
    assert.equal(body(request).model, upstreamModel);
    assert.equal(body(request).stream, true, 'translated requests always stream upstream');
  },
  history: (request) =>
    (body(request).messages as Body[])
      .filter((message) => message.role === 'user' || message.role === 'assistant')
      .map((message) => [message.role, typeof message.content === 'string' ? message.content : (message.content ?? []).map((part: Body) => part.text ?? '').join('')]),
  toolResultSent(request, result) {
    const messages = body(request).messages as Body[];
    const call = messages.find((message) => message.role === 'assistant')!.tool_calls[0];
    const tool = messages.find((message) => message.role === 'tool')!;
    assert.equal(call.function.name, 'multiply');
    assert.equal(tool.tool_call_id, call.id, 'the result answers the call');
    assert.equal(tool.content, JSON.stringify(result));
  },
});

export const geminiProfiles: GeminiProfile[] = [
  openaiProfile('openai'),
  openaiProfile('openai-compatible'),
  {
    type: 'anthropic',
    model: 'test-model',
    text: { streamed: anthropicText, whole: anthropicText },
    replies: {
      stream: { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages', chunkDelayMs: 1 },
      nonStream: { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      toolCall: { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' },
    },
    toolName: 'weather',
    reached(request) {
      assert.equal(request.url, '/v1/messages');
      assert.equal(request.headers['x-api-key'], upstreamKey);
      assert.equal(body(request).model, upstreamModel);
    },
    history: (request) =>
      (body(request).messages as Body[]).map((message) => [
        message.role,
        typeof message.content === 'string' ? message.content : message.content.map((block: Body) => block.text ?? '').join(''),
      ]),
    toolResultSent(request, result) {
      const [assistant, user] = (body(request).messages as Body[]).slice(-2);
      const use = assistant!.content.find((block: Body) => block.type === 'tool_use');
      const answer = user!.content.find((block: Body) => block.type === 'tool_result');
      assert.equal(use.name, 'weather');
      assert.equal(answer.tool_use_id, use.id, 'the result answers the call');
      assert.deepEqual(answer.content, [{ type: 'text', text: JSON.stringify(result) }]);
    },
    countReply: { reply: { json: { input_tokens: 42 } }, path: '/v1/messages/count_tokens', total: 42 },
  },
  {
    type: 'gemini',
    model: 'test-model',
    text: { streamed: geminiStreamText, whole: geminiNonStreamText },
    // A Gemini client's non-stream request goes to `:generateContent`, so it gets the non-stream recordings.
    replies: {
      stream: { fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini', chunkDelayMs: 1 },
      nonStream: { fixture: 'gemini/non-stream-text.json', protocol: 'gemini' },
      toolCall: { fixture: 'gemini/non-stream-function-call.json', protocol: 'gemini' },
    },
    toolName: 'weather',
    reached(request) {
      assert.match(request.url, new RegExp(`^/v1beta/models/${upstreamModel}:(generateContent|streamGenerateContent\\?alt=sse)$`));
      assert.equal(request.headers['x-goog-api-key'], upstreamKey);
      assert.equal(request.headers.authorization, undefined, "the client's key does not go upstream");
    },
    history: (request) =>
      (body(request).contents as Body[]).map((content) => [
        content.role === 'model' ? 'assistant' : 'user',
        (content.parts as Body[]).filter((part) => !part.thought).map((part) => part.text ?? '').join(''),
      ]),
    toolResultSent(request, result) {
      const contents = body(request).contents as Body[];
      const call = contents.at(-2)!.parts[0];
      assert.equal(call.functionCall.name, 'weather');
      assert.equal(call.thoughtSignature, fixtureJson<Body>('gemini/non-stream-function-call.json').candidates[0].content.parts[0].thoughtSignature, 'the signature came back verbatim');
      assert.deepEqual(contents.at(-1)!.parts[0].functionResponse, { name: 'weather', response: { output: result } });
    },
    countReply: { reply: { json: { totalTokens: 42 } }, path: `/v1beta/models/${upstreamModel}:countTokens`, total: 42 },
  },
  {
    type: 'builtin',
    model: 'builtin/echo',
    text: { streamed: 'You said: Hello gateway', whole: 'You said: Hello gateway' },
    toolName: 'weather',
    reached: () => {},
    history: () => [],
    toolResultSent: () => {},
  },
];

export interface GeminiSetup {
  origin: string;
  apiKey: string;
  /** Absent for the built-in model, which needs none. */
  upstream?: FakeUpstream;
  logs: string[];
  close(): Promise<void>;
}

/** A gateway whose `profile.model` is served by a fake upstream of the profile's type (or the built-in model). */
export async function startGeminiSetup(profile: GeminiProfile, extra: Parameters<typeof startUpstreamGateway>[1] = {}): Promise<GeminiSetup> {
  if (profile.type === 'builtin') {
    const gateway = await startGateway();
    return { origin: gateway.origin, apiKey: gateway.apiKey, logs: gateway.logs, close: () => gateway.close() };
  }
  const setup = await startUpstreamGateway(profile.type, extra);
  return { origin: setup.gateway.origin, apiKey: setup.gateway.apiKey, upstream: setup.upstream, logs: setup.gateway.logs, close: () => setup.close() };
}

/**
 * Splits an `alt=sse` body into its chunks, checking Gemini's framing on the way: `data:` lines only (an
 * `event:` line makes the SDK drop a chunk), no `[DONE]` (it makes the SDK throw), a blank line after
 * every frame. Every chunk must match the contract.
 */
export function parseGeminiSse(text: string): GeminiChunk[] {
  assert.ok(text.endsWith('\n\n'), 'the stream ends with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const match = /^data: ([^\n]+)$/.exec(frame);
      assert.ok(match, `a frame is one data: line, got ${JSON.stringify(frame.slice(0, 200))}`);
      const chunk = JSON.parse(match[1]!) as GeminiChunk;
      assertMatchesSchema('GeminiGenerateContentResponse', chunk);
      return chunk;
    });
}

/** The text a chunk holds, thoughts left out (what `response.text` gives in the SDK). */
export const chunkText = (chunk: GeminiChunk) =>
  (chunk.candidates?.[0]?.content?.parts ?? [])
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
