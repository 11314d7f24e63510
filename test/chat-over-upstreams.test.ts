// Chat Completions clients (the official `openai` SDK) against every upstream type, each a fake server
// replaying recorded traffic: translated for Anthropic and Gemini, passed through for OpenAI and
// OpenAI-compatible servers. Each test also checks what the upstream received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type OpenAI from 'openai';
import type { ProviderType } from '../server/config/config-schema.js';
import type { RecordedRequest } from './helpers/fake-upstream.js';
import { fixtureChunks, fixtureJson, type WireProtocol } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, tinyPng, upstreamKey, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';

type Body = Record<string, any>;

/** What differs per upstream type: its wire protocol, its fixtures, and how to read what it received. */
interface Profile {
  type: ProviderType;
  /** Model config beyond provider and upstream model. */
  model?: Record<string, unknown>;
  protocol: WireProtocol;
  path: string;
  authenticated(request: RecordedRequest): boolean;
  modelOf(request: RecordedRequest): string | undefined;
  streamText: { fixture: string; text: string; usage: { prompt: number; completion: number } };
  /** What the upstream answers to a non-stream client request. */
  nonStream: { fixture: string; text: string };
  toolCall: { fixture: string; name: string };
  toolCallNonStream: string;
  /** The tool call ID and result the upstream received back on the second turn. */
  toolResultSent(request: RecordedRequest, callId: string): void;
  imageSent(request: RecordedRequest): void;
}

const body = (request: RecordedRequest) => request.json as Body;
const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const geminiText = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';
const openaiStreamText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).choices[0]?.delta.content ?? '')
  .join('');
const openaiNonStream = fixtureJson<Body>('openai-chat/non-stream-text.json').choices[0].message.content as string;

const openaiProfile = (type: ProviderType, model?: Record<string, unknown>): Profile => ({
  type,
  model,
  protocol: 'openai-chat',
  path: '/v1/chat/completions',
  authenticated: (request) => request.headers.authorization === `Bearer ${upstreamKey}`,
  modelOf: (request) => body(request).model,
  streamText: { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', text: openaiStreamText, usage: { prompt: 16, completion: 300 } },
  nonStream: { fixture: 'openai-chat/non-stream-text.json', text: openaiNonStream },
  toolCall: { fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', name: 'multiply' },
  toolCallNonStream: 'openai-chat/non-stream-tool-calls.json',
  toolResultSent(request, callId) {
    const tool = body(request).messages.find((message: Body) => message.role === 'tool');
    assert.equal(tool.tool_call_id, callId);
    assert.equal(tool.content, '{"population": 1000}');
  },
  imageSent(request) {
    assert.equal(body(request).messages[0].content[1].image_url.url, tinyPng, 'forwarded untouched');
  },
});

const profiles: Profile[] = [
  openaiProfile('openai'),
  // Self-hosted models are not assumed to see images: this one says it does.
  openaiProfile('openai-compatible', { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'] }),
  {
    type: 'anthropic',
    protocol: 'anthropic-messages',
    path: '/v1/messages',
    authenticated: (request) => request.headers['x-api-key'] === upstreamKey && request.headers['anthropic-version'] === '2023-06-01',
    modelOf: (request) => body(request).model,
    streamText: { fixture: 'anthropic-messages/stream-text.chunks.txt', text: anthropicText, usage: { prompt: 12, completion: 30 } },
    nonStream: { fixture: 'anthropic-messages/stream-text.chunks.txt', text: anthropicText },
    toolCall: { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', name: 'weather' },
    toolCallNonStream: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt',
    toolResultSent(request, callId) {
      const [assistant, user] = body(request).messages.slice(-2);
      assert.equal(assistant.content.find((block: Body) => block.type === 'tool_use').id, callId);
      const result = user.content.find((block: Body) => block.type === 'tool_result');
      assert.equal(result.tool_use_id, callId);
      assert.deepEqual(result.content, [{ type: 'text', text: '{"population": 1000}' }]);
    },
    imageSent(request) {
      const image = body(request).messages[0].content.find((block: Body) => block.type === 'image');
      assert.deepEqual(image.source, { type: 'base64', media_type: 'image/png', data: tinyPng.split(',')[1] });
    },
  },
  {
    type: 'gemini',
    protocol: 'gemini',
    path: `/v1beta/models/${upstreamModel}:streamGenerateContent?alt=sse`,
    authenticated: (request) => request.headers['x-goog-api-key'] === upstreamKey,
    modelOf: (request) => /models\/([^:]+):/.exec(request.url)?.[1],
    streamText: { fixture: 'gemini/stream-text.chunks.txt', text: geminiText, usage: { prompt: 9, completion: 23 + 185 } },
    nonStream: { fixture: 'gemini/stream-text.chunks.txt', text: geminiText },
    toolCall: { fixture: 'gemini/stream-function-call.chunks.txt', name: 'weather' },
    toolCallNonStream: 'gemini/stream-function-call.chunks.txt',
    toolResultSent(request) {
      const contents = body(request).contents as Body[];
      const call = contents.at(-2)!.parts.find((part: Body) => part.functionCall);
      assert.equal(call.functionCall.name, 'weather');
      assert.match(call.thoughtSignature, /^EqUCCqIC/, 'the thought signature came back through the tool call ID');
      const response = contents.at(-1)!.parts.find((part: Body) => part.functionResponse);
      assert.deepEqual(response.functionResponse, { name: 'weather', response: { population: 1000 } });
    },
    imageSent(request) {
      const part = body(request).contents[0].parts.find((entry: Body) => entry.inlineData);
      assert.deepEqual(part.inlineData, { mimeType: 'image/png', data: tinyPng.split(',')[1] });
    },
  },
];

const lookupTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'lookup', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

for (const profile of profiles) {
  describe(`Chat Completions over a ${profile.type} upstream`, () => {
    let setup: UpstreamGateway;
    before(async () => (setup = await startUpstreamGateway(profile.type, { model: profile.model })));
    after(() => setup.close());

    const lastRequest = () => setup.upstream.requests.at(-1)!;
    const assertReachedUpstream = (request: RecordedRequest) => {
      assert.equal(request.url, profile.path);
      assert.ok(profile.authenticated(request), `the upstream key reached the upstream: ${JSON.stringify(request.headers)}`);
      assert.equal(profile.modelOf(request), upstreamModel);
    };

    test('the strict stream helper assembles the streamed answer', async () => {
      setup.upstream.enqueue({ fixture: profile.streamText.fixture, protocol: profile.protocol });
      const stream = setup.openai.chat.completions.stream({
        model: 'test-model',
        messages: [{ role: 'user', content: 'Hello' }],
        stream_options: { include_usage: true },
      });
      const completion = await stream.finalChatCompletion();
      assert.equal(completion.choices[0]!.message.content, profile.streamText.text);
      assert.equal(completion.choices[0]!.finish_reason, 'stop');
      assert.equal(completion.usage?.prompt_tokens, profile.streamText.usage.prompt);
      assert.equal(completion.usage?.completion_tokens, profile.streamText.usage.completion);
      assertReachedUpstream(lastRequest());
    });

    test('a non-stream request gets one chat.completion with usage', async () => {
      setup.upstream.enqueue({ fixture: profile.nonStream.fixture, protocol: profile.protocol });
      const completion = await setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(completion.object, 'chat.completion');
      assert.equal(completion.choices[0]!.message.content, profile.nonStream.text);
      assert.ok(completion.usage && completion.usage.prompt_tokens > 0 && completion.usage.completion_tokens > 0);
      assertReachedUpstream(lastRequest());
    });

    test('a tool call round trip reaches the upstream in its own protocol', async () => {
      setup.upstream.enqueue({ fixture: profile.toolCall.fixture, protocol: profile.protocol });
      const stream = setup.openai.chat.completions.stream({
        model: 'test-model',
        messages: [{ role: 'user', content: 'Population of Paris?' }],
        tools: [lookupTool],
      });
      const first = await stream.finalChatCompletion();
      const call = first.choices[0]!.message.tool_calls?.[0];
      assert.ok(call && call.type === 'function', 'a tool call came back');
      assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
      assert.equal(call.function.name, profile.toolCall.name);
      assert.doesNotThrow(() => JSON.parse(call.function.arguments));

      setup.upstream.enqueue({ fixture: profile.nonStream.fixture, protocol: profile.protocol });
      const second = await setup.openai.chat.completions.create({
        model: 'test-model',
        tools: [lookupTool],
        messages: [
          { role: 'user', content: 'Population of Paris?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: '{"population": 1000}' },
        ],
      });
      assert.equal(second.choices[0]!.message.content, profile.nonStream.text);
      const upstreamCallId = call.id.split('__ts_')[0]!;
      profile.toolResultSent(lastRequest(), upstreamCallId);
    });

    test('image input reaches the upstream', async () => {
      setup.upstream.enqueue({ fixture: profile.nonStream.fixture, protocol: profile.protocol });
      await setup.openai.chat.completions.create({
        model: 'test-model',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: tinyPng } }] }],
      });
      profile.imageSent(lastRequest());
    });

    test("an upstream 400 keeps the upstream's message; a refused upstream key never reaches the client", async () => {
      setup.upstream.enqueue({ status: 400, json: errorBody(profile.protocol, 'Unsupported value: temperature') });
      await assert.rejects(
        setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] }),
        (error: InstanceType<typeof OpenAI.BadRequestError>) => error.status === 400 && error.message.includes('Unsupported value: temperature'),
      );
      setup.upstream.enqueue({ status: 401, json: errorBody(profile.protocol, `Incorrect API key provided: ${upstreamKey}`) });
      await assert.rejects(
        setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] }),
        (error: InstanceType<typeof OpenAI.APIError>) => error.status === 502 && !JSON.stringify(error).includes(upstreamKey.slice(3)),
      );
      assert.ok(setup.gateway.logs.every((line) => !line.includes(upstreamKey)), 'the upstream key is never logged');
    });
  });
}

describe('several tool calls in one answer', () => {
  const cases = [
    { type: 'openai', fixture: 'openai-chat/stream-parallel-tool-calls.chunks.txt', protocol: 'openai-chat' },
    { type: 'gemini', fixture: 'gemini/stream-two-function-calls.chunks.txt', protocol: 'gemini' },
  ] as const;
  for (const { type, fixture, protocol } of cases) {
    test(`both calls survive (${type} upstream)`, async () => {
      const setup = await startUpstreamGateway(type);
      try {
        const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'Weather and time in Paris?' }], tools: [lookupTool] };
        setup.upstream.enqueue({ fixture, protocol });
        const completions: OpenAI.Chat.ChatCompletion[] = [await setup.openai.chat.completions.stream(request).finalChatCompletion()];
        // A passed-through non-stream request gets the upstream's JSON; only a translated one is a folded stream.
        if (type === 'gemini') {
          setup.upstream.enqueue({ fixture, protocol });
          completions.push(await setup.openai.chat.completions.create(request));
        }
        for (const completion of completions) {
          const calls = completion.choices[0]!.message.tool_calls ?? [];
          assert.deepEqual(
            calls.map((call) => call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]),
            [
              ['get_weather', { city: 'Paris' }],
              ['get_time', { timezone: 'Europe/Paris' }],
            ],
          );
          assert.equal(new Set(calls.map((call) => call.id)).size, 2, 'distinct IDs');
          assert.equal(completion.choices[0]!.finish_reason, 'tool_calls');
        }
      } finally {
        await setup.close();
      }
    });
  }
});

describe('pass-through to Chat Completions upstreams', () => {
  test('forwards the body with only the model rewritten, and reads usage the client did not ask for', async () => {
    const setup = await startUpstreamGateway('openai');
    try {
      setup.upstream.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
      const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'Hello' }], temperature: 0.3, seed: 7, user: 'u-1' };
      const chunks = [];
      for await (const chunk of await setup.openai.chat.completions.create({ ...request, stream: true })) chunks.push(chunk);
      assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), openaiStreamText);
      assert.ok(chunks.every((chunk) => chunk.choices.length === 1), 'the usage chunk the client did not ask for is not forwarded');
      assert.deepEqual(body(setup.upstream.requests[0]!), {
        ...request,
        model: upstreamModel,
        stream: true,
        stream_options: { include_usage: true },
      });
      await waitFor(() => setup.gateway.logs.some((line) => line.includes('"completion_tokens":300') || line.includes('"outputTokens":300')));
    } finally {
      await setup.close();
    }
  });

  test('an OpenAI-compatible server gets max_tokens instead of max_completion_tokens', async () => {
    const setup = await startUpstreamGateway('openai-compatible');
    try {
      setup.upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
      await setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 50 });
      const sent = body(setup.upstream.requests[0]!);
      assert.equal(sent.max_tokens, 50);
      assert.equal('max_completion_tokens' in sent, false);
    } finally {
      await setup.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function errorBody(protocol: WireProtocol, message: string): unknown {
  switch (protocol) {
    case 'anthropic-messages':
      return { type: 'error', error: { type: 'invalid_request_error', message } };
    case 'gemini':
      return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
    default:
      return { error: { message, type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } };
  }
}
