// The Vercel AI SDK's Anthropic provider (`createAnthropic({ baseURL: <gateway>/v1 })`) against the gateway's
// Messages API on every upstream type: generateText and streamText, each running a tool round trip (the SDK
// calls the tool, sends its result, and gets the final answer). The SDK parses every event with its own
// schemas; every raw stream is also checked frame by frame against the spec.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { ProviderType } from '../server/config/config-schema.js';
import { recordAnthropicStreams } from './helpers/anthropic-stream.js';
import type { FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureChunks, type WireProtocol } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';

type Reply = { fixture: string; protocol: WireProtocol };

const wire = recordAnthropicStreams();
afterEach(async () => void (await wire.checked()));

interface Profile {
  type: ProviderType | 'builtin';
  /** Replies for generateText (non-stream client calls) and streamText; only a pass-through differs. */
  call?: { json: Reply; stream: Reply; name: string; input: unknown };
  /** `expectedJson` when the non-stream recording says something else. */
  text?: { json: Reply; stream: Reply; expected: string; expectedJson?: string };
}

const openaiText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
  .join('');
const both = (reply: Reply) => ({ json: reply, stream: reply });
const openaiProfile = (type: ProviderType): Profile => ({
  type,
  call: { ...both({ fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' }), name: 'multiply', input: { a: 1231, b: 2331 } },
  text: { ...both({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' }), expected: openaiText },
});

const profiles: Profile[] = [
  openaiProfile('openai'),
  openaiProfile('openai-compatible'),
  {
    type: 'anthropic',
    call: {
      json: { fixture: 'anthropic-messages/non-stream-tool-use.json', protocol: 'anthropic-messages' },
      stream: { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' },
      name: 'weather',
      input: { location: 'San Francisco' },
    },
    text: {
      json: { fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' },
      stream: { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      expected: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
      expectedJson: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
    },
  },
  {
    type: 'gemini',
    call: { ...both({ fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' }), name: 'weather', input: { location: 'San Francisco' } },
    text: { ...both({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' }), expected: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y' },
  },
  { type: 'builtin' },
];

/** The tools the recordings call; each answers with something the next request must carry. */
const tools = {
  multiply: tool({ description: 'Multiply two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => ({ product: a * b }) }),
  weather: tool({
    description: 'Current weather.',
    inputSchema: jsonSchema<{ location: string }>({ type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }),
    execute: async ({ location }) => ({ location, forecast: 'sunny' }),
  }),
};
const toolOutput = { multiply: /2869461/, weather: /sunny/ };

for (const profile of profiles) {
  describe(`AI SDK, Anthropic provider over a ${profile.type} upstream`, () => {
    let gateway: TestGateway;
    let upstream: FakeUpstream | undefined;
    let close: () => Promise<void>;
    before(async () => {
      if (profile.type === 'builtin') {
        gateway = await startGateway();
        close = () => gateway.close();
      } else {
        const setup = await startUpstreamGateway(profile.type);
        ({ gateway, upstream } = setup);
        close = () => setup.close();
      }
    });
    after(() => close());

    const model = () =>
      createAnthropic({ baseURL: `${gateway.origin}/v1`, apiKey: gateway.apiKey, fetch: wire.fetch })(profile.type === 'builtin' ? 'builtin/echo' : 'test-model');

    /** The second step's upstream request carries the tool's output, in the upstream's own protocol. */
    const assertToolResultSent = (name: keyof typeof toolOutput) => {
      if (!upstream) return;
      assert.match(JSON.stringify(upstream.requests.at(-1)!.json), toolOutput[name]);
    };

    for (const mode of ['generateText', 'streamText'] as const) {
      test(`${mode} with a tool: the call, the tool's result sent back, and the final answer`, async () => {
        if (profile.call && profile.text) upstream!.enqueue(profile.call[mode === 'generateText' ? 'json' : 'stream'], profile.text[mode === 'generateText' ? 'json' : 'stream']);
        const options = { maxRetries: 0, model: model(), prompt: 'What is 1231 times 2331, and the weather in SF?', tools, stopWhen: stepCountIs(2) };
        let steps;
        let text: string;
        if (mode === 'generateText') {
          const result = await generateText(options);
          ({ steps, text } = result);
        } else {
          const result = streamText(options);
          text = '';
          for await (const delta of result.textStream) text += delta;
          steps = await result.steps;
          assert.equal((await wire.checked()).length, 2, 'two streams, each checked');
        }
        assert.equal(steps.length, 2);
        const [call] = steps[0]!.toolCalls;
        assert.ok(call, 'the first step called a tool');
        assert.equal(steps[0]!.finishReason, 'tool-calls');
        if (profile.call) {
          assert.deepEqual({ name: call.toolName, input: call.input }, { name: profile.call.name, input: profile.call.input });
          assert.equal(text, (mode === 'generateText' && profile.text!.expectedJson) || profile.text!.expected);
        } else {
          assert.equal(call.toolName, 'multiply', 'the built-in model calls the first tool');
          assert.match(text, /multiply/, 'and describes its result');
        }
        assert.equal(steps[1]!.finishReason, 'stop');
        assert.ok(steps[1]!.usage.inputTokens! > 0 && steps[1]!.usage.outputTokens! > 0, 'usage per step');
        assertToolResultSent(call.toolName as keyof typeof toolOutput);
      });
    }
  });
}
