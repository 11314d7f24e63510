// Anthropic Messages clients (the official SDK, 1.x with Bearer auth and 0.x with x-api-key) against every
// upstream type: forwarded to Anthropic, translated for OpenAI, OpenAI-compatible servers, Gemini and the
// built-in model. The fakes replay recorded traffic; each test checks what the upstream received in its
// own protocol, and every streamed event is checked against the spec's AnthropicStreamEvent.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import type { ProviderType } from '../server/config/config-schema.js';
import { recordAnthropicStreams } from './helpers/anthropic-stream.js';
import type { FakeReply, FakeUpstream, RecordedRequest } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureChunks, type WireProtocol } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, tinyPng, upstreamKey, upstreamModel } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Message = Anthropic.Message;

/** What the test needs of either SDK major; their parameter types differ only in fields not used here. */
interface MessagesClient {
  messages: {
    create(params: Body): Promise<Message>;
    stream(params: Body): { finalMessage(): Promise<Message> };
    countTokens(params: Body): Promise<{ input_tokens: number }>;
  };
}

const wire = recordAnthropicStreams();
afterEach(async () => void (await wire.checked()));

/** Headers of every request an SDK sent, to prove which auth each major uses. */
const sentHeaders: Headers[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  sentHeaders.push(new Headers(init?.headers));
  return wire.fetch(input, init);
};

const sdks = [
  {
    name: 'SDK 1.x (Bearer)',
    client: (origin: string, key: string) => new Anthropic({ authToken: key, baseURL: origin, maxRetries: 0, fetch: recordingFetch }) as unknown as MessagesClient,
    errors: Anthropic,
    authenticatedBy: (headers: Headers, key: string) => headers.get('authorization') === `Bearer ${key}` && !headers.has('x-api-key'),
  },
  {
    name: 'SDK 0.x (x-api-key)',
    client: (origin: string, key: string) => new Anthropic0({ apiKey: key, baseURL: origin, maxRetries: 0, fetch: recordingFetch }) as unknown as MessagesClient,
    errors: Anthropic0,
    authenticatedBy: (headers: Headers, key: string) => headers.get('x-api-key') === key && !headers.has('authorization'),
  },
] as const;

type Reply = { fixture: string; protocol: WireProtocol } | FakeReply;

/** Per upstream type: what it answers and how to read what it received. */
interface Profile {
  type: ProviderType | 'builtin';
  model?: Record<string, unknown>;
  /** Replies to a plain text request: `json` for a non-stream client call (only a pass-through differs). */
  text?: { stream: Reply; json: Reply; expected: string; usage: { input: number; output: number } };
  tool?: { stream: Reply; json: Reply; name: string; input: Record<string, unknown> };
  /** The upstream's request for a client request `sent`. */
  received?: {
    path: string;
    authenticated(request: RecordedRequest): boolean;
    text(request: RecordedRequest, sent: Body): void;
    toolResult(request: RecordedRequest, callId: string): void;
    image(request: RecordedRequest, sent: Body): void;
  };
  /** Counted by the upstream's own endpoint (the reply to give, and what it must have been asked), or estimated by the gateway. */
  count?: { reply: Reply; received(request: RecordedRequest): void };
}

const json = (request: RecordedRequest) => request.json as Body;
const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const anthropicJsonText = "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?";
const geminiText = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';
const openaiText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).choices[0]?.delta.content ?? '')
  .join('');
const pngData = tinyPng.split(',')[1]!;

const openaiProfile = (type: ProviderType, model?: Record<string, unknown>): Profile => {
  const text = { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' } as const;
  const tool = { fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' } as const;
  return {
    type,
    model,
    text: { stream: text, json: text, expected: openaiText, usage: { input: 16, output: 300 } },
    tool: { stream: tool, json: tool, name: 'multiply', input: { a: 1231, b: 2331 } },
    received: {
      path: '/v1/chat/completions',
      authenticated: (request) => request.headers.authorization === `Bearer ${upstreamKey}`,
      text(request, sent) {
        const body = json(request);
        assert.equal(body.model, upstreamModel);
        assert.equal(body.stream, true, 'translated calls always stream upstream');
        assert.deepEqual(body.messages.at(-1), { role: 'user', content: sent.messages.at(-1).content });
        assert.deepEqual(body.messages[0], { role: 'system', content: sent.system });
      },
      toolResult(request, callId) {
        const messages = json(request).messages as Body[];
        const assistant = messages.find((message) => message.role === 'assistant')!;
        assert.equal(assistant.tool_calls[0].id, callId);
        assert.deepEqual(JSON.parse(assistant.tool_calls[0].function.arguments), { a: 1231, b: 2331 });
        const result = messages.find((message) => message.role === 'tool')!;
        assert.deepEqual(result, { role: 'tool', tool_call_id: callId, content: '{"product": 2869461}' });
      },
      image(request) {
        const parts = json(request).messages.at(-1).content as Body[];
        assert.deepEqual(parts.find((part) => part.type === 'image_url')!.image_url, { url: tinyPng });
      },
    },
  };
};

const profiles: Profile[] = [
  openaiProfile('openai'),
  // Self-hosted models are not assumed to see images: this one says it does.
  openaiProfile('openai-compatible', { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'] }),
  {
    type: 'anthropic',
    text: {
      stream: { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      json: { fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' },
      expected: anthropicText,
      usage: { input: 12, output: 30 },
    },
    tool: {
      stream: { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' },
      json: { fixture: 'anthropic-messages/non-stream-tool-use.json', protocol: 'anthropic-messages' },
      name: 'weather',
      input: { location: 'San Francisco' },
    },
    received: {
      path: '/v1/messages',
      authenticated: (request) =>
        request.headers['x-api-key'] === upstreamKey && request.headers['anthropic-version'] === '2023-06-01' && !request.headers.authorization,
      // Forwarded: the client's own body, only the model renamed.
      text: (request, sent) => assert.deepEqual(json(request), { ...sent, model: upstreamModel }),
      toolResult(request, callId) {
        const [assistant, user] = (json(request).messages as Body[]).slice(-2);
        assert.equal(assistant!.content[0].id, callId);
        assert.deepEqual(user!.content[0], { type: 'tool_result', tool_use_id: callId, content: '{"product": 2869461}' });
      },
      image: (request, sent) => assert.deepEqual(json(request), { ...sent, model: upstreamModel }),
    },
    count: {
      reply: { json: { input_tokens: 1234 } },
      received(request) {
        assert.equal(request.url, '/v1/messages/count_tokens');
        assert.equal(request.headers['x-api-key'], upstreamKey);
        assert.deepEqual(json(request), {
          model: upstreamModel,
          system: [{ type: 'text', text: 'Be brief.' }],
          tools: [calculator],
          tool_choice: { type: 'auto' },
          messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens is this?' }] }],
        });
      },
    },
  },
  {
    type: 'gemini',
    text: {
      stream: { fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' },
      json: { fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' },
      expected: geminiText,
      usage: { input: 9, output: 23 + 185 },
    },
    tool: {
      stream: { fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' },
      json: { fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' },
      name: 'weather',
      input: { location: 'San Francisco' },
    },
    received: {
      path: `/v1beta/models/${upstreamModel}:streamGenerateContent?alt=sse`,
      authenticated: (request) => request.headers['x-goog-api-key'] === upstreamKey,
      text(request, sent) {
        const body = json(request);
        assert.deepEqual(body.systemInstruction.parts, [{ text: sent.system }]);
        assert.deepEqual(body.contents.at(-1), { role: 'user', parts: [{ text: sent.messages.at(-1).content }] });
      },
      toolResult(request) {
        const contents = json(request).contents as Body[];
        const call = contents.at(-2)!.parts.find((part: Body) => part.functionCall);
        assert.deepEqual(call.functionCall, { name: 'weather', args: { location: 'San Francisco' } });
        assert.match(call.thoughtSignature, /^EqUCCqIC/, 'the thought signature came back through the tool_use id');
        const result = contents.at(-1)!.parts.find((part: Body) => part.functionResponse);
        assert.deepEqual(result.functionResponse, { name: 'weather', response: { product: 2869461 } });
      },
      image(request) {
        const part = json(request).contents.at(-1).parts.find((entry: Body) => entry.inlineData);
        assert.deepEqual(part.inlineData, { mimeType: 'image/png', data: pngData });
      },
    },
    count: {
      reply: { json: { totalTokens: 1234 } },
      received(request) {
        assert.equal(request.url, `/v1beta/models/${upstreamModel}:countTokens`);
        assert.equal(request.headers['x-goog-api-key'], upstreamKey);
        const { generateContentRequest } = json(request);
        assert.deepEqual(generateContentRequest.contents, [{ role: 'user', parts: [{ text: 'How many tokens is this?' }] }]);
        assert.equal(generateContentRequest.tools[0].functionDeclarations[0].name, 'multiply');
      },
    },
  },
  // In process: nothing upstream to check, and no vision by default.
  { type: 'builtin' },
];

const calculator: Anthropic.Tool = {
  name: 'multiply',
  description: 'Multiplies two numbers.',
  input_schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
};

for (const profile of profiles) {
  describe(`Anthropic Messages over a ${profile.type} upstream`, () => {
    let gateway: TestGateway;
    let upstream: FakeUpstream | undefined;
    let close: () => Promise<void>;
    const model = profile.type === 'builtin' ? 'builtin/echo' : 'test-model';
    before(async () => {
      if (profile.type === 'builtin') {
        gateway = await startGateway();
        close = () => gateway.close();
      } else {
        const setup = await startUpstreamGateway(profile.type, { model: profile.model });
        ({ gateway, upstream } = setup);
        close = () => setup.close();
      }
    });
    after(() => close());

    const lastRequest = () => upstream!.requests.at(-1)!;
    const reachedUpstream = (request: RecordedRequest) => {
      assert.equal(request.url, profile.received!.path);
      assert.ok(profile.received!.authenticated(request), `the upstream key reached the upstream: ${JSON.stringify(request.headers)}`);
    };

    for (const sdk of sdks) {
      describe(sdk.name, () => {
        const client = () => sdk.client(gateway.origin, gateway.apiKey);

        test('messages.create answers with one message and its usage', async () => {
          const sent = { model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] };
          if (profile.text) upstream!.enqueue(profile.text.json);
          const message = await client().messages.create(sent);
          assert.equal(message.type, 'message');
          assert.equal(message.role, 'assistant');
          assert.equal(message.stop_reason, 'end_turn');
          const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          if (!profile.text) {
            assert.equal(text, 'You said: Hello there');
            assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
            return;
          }
          assert.equal(text, profile.type === 'anthropic' ? anthropicJsonText : profile.text.expected);
          if (profile.type !== 'anthropic') {
            assert.equal(message.model, 'test-model');
            assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [profile.text.usage.input, profile.text.usage.output]);
          }
          assert.ok(sdk.authenticatedBy(sentHeaders.at(-1)!, gateway.apiKey), `${sdk.name} authenticated as documented`);
          reachedUpstream(lastRequest());
          profile.received!.text(lastRequest(), sent);
        });

        test('messages.stream(...).finalMessage() assembles the streamed answer', async () => {
          const sent = { model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Stream to me' }], stream: true };
          if (profile.text) upstream!.enqueue(profile.text.stream);
          const { stream: _stream, ...params } = sent;
          const message = await client().messages.stream(params).finalMessage();
          const [events] = await wire.checked();
          assert.ok(events!.some((event) => event.type === 'content_block_delta' && event.delta.type === 'text_delta'), 'text came as text_delta events');
          const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          assert.equal(message.stop_reason, 'end_turn');
          if (!profile.text) {
            assert.equal(text, 'You said: Stream to me');
            assert.ok(message.usage.input_tokens > 0, 'message_delta carried the input tokens');
            return;
          }
          assert.equal(text, profile.text.expected);
          assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [profile.text.usage.input, profile.text.usage.output]);
          reachedUpstream(lastRequest());
          profile.received!.text(lastRequest(), sent);
        });

        test('a tool_use round trip reaches the upstream in its own protocol', async () => {
          const question = { role: 'user', content: 'What is 1231 times 2331?' };
          if (profile.tool) upstream!.enqueue(profile.tool.stream);
          const first = await client().messages.stream({ model, max_tokens: 256, tools: [calculator], messages: [question] }).finalMessage();
          assert.equal(first.stop_reason, 'tool_use');
          const call = first.content.find((block) => block.type === 'tool_use');
          assert.ok(call && call.type === 'tool_use', 'a tool_use block came back');
          if (profile.tool) {
            assert.equal(call.name, profile.tool.name);
            assert.deepEqual(call.input, profile.tool.input);
          } else {
            assert.equal(call.name, 'multiply');
            assert.deepEqual(Object.keys(call.input as Body).sort(), ['a', 'b']);
          }

          if (profile.text) upstream!.enqueue(profile.text.json);
          const second = await client().messages.create({
            model,
            max_tokens: 256,
            tools: [calculator],
            messages: [
              question,
              { role: 'assistant', content: first.content },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"product": 2869461}' }] },
            ],
          });
          assert.equal(second.stop_reason, 'end_turn');
          if (!profile.received) {
            assert.match((second.content[0] as Anthropic.TextBlock).text, /2869461/, 'the built-in model describes the tool result');
            return;
          }
          reachedUpstream(lastRequest());
          profile.received.toolResult(lastRequest(), call.id.split('__ts_')[0]!);
        });

        test('an image block reaches the upstream (or is refused by a model without vision)', async () => {
          const sent = {
            model,
            max_tokens: 256,
            messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngData } }] }],
          };
          if (!profile.received) {
            await assert.rejects(client().messages.create(sent), (error: unknown) => {
              assert.ok(error instanceof sdk.errors.BadRequestError, String(error));
              assert.match(error.message, /does not support image input/);
              return true;
            });
            return;
          }
          upstream!.enqueue(profile.text!.json);
          await client().messages.create(sent);
          reachedUpstream(lastRequest());
          profile.received.image(lastRequest(), sent);
        });

        test('countTokens: the upstream counts where it can, the gateway estimates elsewhere', async () => {
          const sent = { model, system: 'Be brief.', tools: [calculator], messages: [{ role: 'user', content: 'How many tokens is this?' }] };
          const before = upstream?.requests.length ?? 0;
          if (profile.count) upstream!.enqueue(profile.count.reply);
          const { input_tokens } = await client().messages.countTokens(sent);
          if (!profile.count) {
            assert.ok(Number.isInteger(input_tokens) && input_tokens > 20, `an estimate covering system, tools and message: ${input_tokens}`);
            assert.equal(upstream?.requests.length ?? 0, before, 'no upstream call for an estimate');
            return;
          }
          assert.equal(input_tokens, 1234);
          profile.count.received(lastRequest());
        });

        test('an unknown model is a NotFoundError, a bad key an AuthenticationError', async () => {
          const before = upstream?.requests.length ?? 0;
          const params = { model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
          await assert.rejects(client().messages.create(params), (error: unknown) => {
            assert.ok(error instanceof sdk.errors.NotFoundError, String(error));
            assert.equal((error.error as Body).error.type, 'not_found_error');
            return true;
          });
          const wrong = sdk.client(gateway.origin, 'sk-gw-wrong');
          await assert.rejects(wrong.messages.create({ ...params, model }), (error: unknown) => {
            assert.ok(error instanceof sdk.errors.AuthenticationError, String(error));
            assert.equal((error.error as Body).error.type, 'authentication_error');
            return true;
          });
          await assert.rejects(wrong.messages.countTokens({ model, messages: params.messages }), sdk.errors.AuthenticationError);
          assert.equal(upstream?.requests.length ?? 0, before, 'nothing reached the upstream');
        });
      });
    }
  });
}
