// The Vercel AI SDK (`ai` + `@ai-sdk/openai`, `openai.responses(model)`) against the gateway's Responses API
// on every upstream type of the profile table (helpers/upstream-profiles), fakes replaying recorded traffic:
// generateText and streamText, text and tool calls, a tool round trip, reasoning and a failure mid-stream. The SDK parses every event with its own schemas, so
// content arriving intact is the check; every raw stream is also checked frame by frame.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { ProviderType } from '../server/config/config-schema.js';
import { recordResponsesStreams } from './helpers/responses-stream.js';
import type { TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, type UpstreamGateway } from './helpers/upstream-gateway.js';
import { assertReachedUpstream } from './helpers/upstream-profiles/assert-upstream.js';
import { upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const wire = recordResponsesStreams();
afterEach(() => wire.checked());

/** The gateway as the AI SDK's OpenAI provider, Responses API, model `test-model`; `sent` collects request bodies. */
function responsesModel(setup: { gateway: TestGateway }, sent: Body[] = []) {
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Body);
    return wire.fetch(input, init);
  };
  return createOpenAI({ baseURL: `${setup.gateway.origin}/v1`, apiKey: setup.gateway.apiKey, fetch }).responses('test-model');
}

async function withUpstream(type: ProviderType, run: (setup: UpstreamGateway) => Promise<void>): Promise<void> {
  const setup = await startUpstreamGateway(type);
  try {
    await run(setup);
  } finally {
    await setup.close();
  }
}

const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";

/** The tools the recordings call, declared the way AI SDK users do: with zod, or with plain JSON Schema. */
const tools = {
  multiply: tool({ description: 'Multiply two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }) }),
  weather: tool({
    description: 'Current weather.',
    inputSchema: jsonSchema<{ location: string }>({ type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }),
  }),
};

// The gateway streams from the upstream even for a plain (non-stream) Responses request and collects the
// answer, so generateText and streamText are both answered from the profile's stream replies.
for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`AI SDK, Responses API over a ${profile.name} upstream`, { skip: side ? false : 'no upstream: the built-in model is covered by responses-sdk.test.ts' }, () => {
    if (!side) return;
    let setup: ProfileSetup;
    before(async () => (setup = await profile.start()));
    after(() => setup.close());
    const lastRequest = () => setup.upstream!.requests.at(-1)!;

    test('generateText: text and usage', async () => {
      setup.upstream!.enqueue(side.text.stream.reply);
      const result = await generateText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Hello' });
      assert.equal(result.text, side.text.stream.text);
      assert.equal(result.finishReason, 'stop');
      assert.equal(result.usage.inputTokens, side.text.usage.input);
      assert.equal(result.usage.outputTokens, side.text.usage.output);
      assert.equal(result.usage.totalTokens, side.text.usage.input + side.text.usage.output);
      assert.match(result.response.id, /^resp_/);
      assertReachedUpstream(side, lastRequest(), true);
      assert.deepEqual(side.wire.history(lastRequest()), [['user', 'Hello']], 'the prompt reached the upstream');
    });

    test('streamText: textStream, finishReason and usage', async () => {
      setup.upstream!.enqueue(side.text.stream.reply);
      const result = streamText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Hello' });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.equal(text, side.text.stream.text);
      assert.equal(await result.finishReason, 'stop');
      const usage = await result.usage;
      assert.equal(usage.inputTokens, side.text.usage.input);
      assert.equal(usage.outputTokens, side.text.usage.output);
      assert.equal((await wire.checked()).length, 1);
    });

    const expectedCall = { name: side.toolCall.stream.name, input: side.toolCall.stream.input };

    test('generateText: a tool call, parsed', async () => {
      setup.upstream!.enqueue(side.toolCall.stream.reply);
      const result = await generateText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Use a tool', tools });
      assert.equal(result.finishReason, 'tool-calls');
      assert.deepEqual(result.toolCalls.map((call) => ({ name: call.toolName, input: call.input })), [expectedCall]);
      assert.ok(result.toolCalls[0]!.toolCallId.length > 0);
      assert.equal(result.usage.inputTokens, side.toolCall.usage.input);
      assert.equal(result.usage.outputTokens, side.toolCall.usage.output);
      assert.ok(JSON.stringify(lastRequest().json).includes(expectedCall.name), 'the tool definitions reached the upstream');
    });

    test('streamText: a tool call, parsed', async () => {
      setup.upstream!.enqueue(side.toolCall.stream.reply);
      const result = streamText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Use a tool', tools });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.equal(text, '');
      assert.equal(await result.finishReason, 'tool-calls');
      const calls = await result.toolCalls;
      assert.deepEqual(calls.map((call) => ({ name: call.toolName, input: call.input })), [expectedCall]);
      const usage = await result.usage;
      assert.equal(usage.inputTokens, side.toolCall.usage.input);
      assert.equal(usage.outputTokens, side.toolCall.usage.output);
    });
  });
}

describe('AI SDK, Responses API: multi-step, reasoning and failures', () => {
  test('a tool round trip: the SDK runs the tool and sends the call and its result back', async () => {
    await withUpstream('anthropic', async (setup) => {
      setup.upstream.enqueue(
        { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' },
        { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      );
      const weather = tool({
        description: 'Current weather.',
        inputSchema: z.object({ location: z.string() }),
        execute: async ({ location }) => ({ location, forecast: 'sunny' }),
      });
      const result = await generateText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Weather in SF?', tools: { weather }, stopWhen: stepCountIs(2) });
      assert.equal(result.steps.length, 2);
      assert.equal(result.text, anthropicText);
      assert.deepEqual(result.steps[0]!.toolResults.map((entry) => entry.output), [{ location: 'San Francisco', forecast: 'sunny' }]);
      const [assistant, user] = (setup.upstream.requests[1]!.json as { messages: Body[] }).messages.slice(-2);
      const call = assistant!.content.find((block: Body) => block.type === 'tool_use');
      assert.deepEqual(call.input, { location: 'San Francisco' });
      const toolResult = user!.content.find((block: Body) => block.type === 'tool_result');
      assert.equal(toolResult.tool_use_id, call.id);
      assert.match(JSON.stringify(toolResult.content), /sunny/);
    });
  });

  /** Two steps where the first says something before its call: the SDK sends that text back in step two. */
  async function textThenCallRoundTrip(store: boolean) {
    return withUpstream('anthropic', async (setup) => {
      setup.upstream.enqueue(
        { fixture: 'anthropic-messages/stream-text-then-tool-use.chunks.txt', protocol: 'anthropic-messages' },
        { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      );
      const json = tool({ description: 'Answer as JSON.', inputSchema: z.object({ elements: z.array(z.unknown()) }), execute: async () => 'done' });
      const sent: Body[] = [];
      const result = await generateText({
        maxRetries: 0,
        model: responsesModel(setup, sent),
        prompt: 'Weather as JSON',
        tools: { json },
        stopWhen: stepCountIs(2),
        providerOptions: { openai: { store } },
      });
      assert.equal(result.text, anthropicText);
      const echoed = sent[1]!.input.slice(1, 3);
      if (store) assert.deepEqual(echoed[0], { type: 'item_reference', id: echoed[0].id });
      else {
        // @ai-sdk/openai 3 sends the text back as an output_text part without annotations (which the contract
        // must accept), 4 as a plain string.
        const text = "I'll invoke the JSON response tool.";
        const { content } = echoed[0];
        assert.deepEqual(content, typeof content === 'string' ? text : [{ type: 'output_text', text }]);
      }
      assert.equal(echoed[1].type, 'function_call');
      assert.equal(echoed[1].id, undefined);
      const messages = (setup.upstream.requests[1]!.json as { messages: Body[] }).messages;
      assert.equal(messages[1]!.content[0].text, "I'll invoke the JSON response tool.");
    });
  }

  test('store: false — earlier text comes back as text (an output_text part without annotations before @ai-sdk/openai 4), the call without its id', () =>
    textThenCallRoundTrip(false));

  // With `store` on (its default) the SDK refers to its earlier message by ID, with no `previous_response_id`:
  // the gateway must find it among the responses it stored, as OpenAI does.
  test('store: true — earlier text comes back as an item_reference', () => textThenCallRoundTrip(true));

  test('streamText: Anthropic thinking arrives as reasoning, then the text', async () => {
    await withUpstream('anthropic', async (setup) => {
      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' });
      const result = streamText({ maxRetries: 0, model: responsesModel(setup), prompt: 'And divided by 5?' });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.equal(text, '925 ÷ 5 = 185');
      assert.equal(await result.reasoningText, 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
      assert.equal(await result.finishReason, 'stop');
      assert.equal((await result.usage).outputTokens, 53);
    });
  });

  test('streamText: a failure mid-stream keeps the partial text and reports the error', async () => {
    await withUpstream('anthropic', async (setup) => {
      const overloaded = fixtureSseEvents('anthropic-messages/stream-overloaded-error.chunks.txt', 'anthropic-messages').at(-1)!;
      setup.upstream.enqueue({ sse: [...fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages').slice(0, 5), overloaded] });
      const errors: unknown[] = [];
      const result = streamText({ maxRetries: 0, model: responsesModel(setup), prompt: 'Hello', onError: ({ error }) => void errors.push(error) });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.equal(text, 'Hello! I');
      assert.equal(await result.finishReason, 'error');
      assert.equal(errors.length, 1);
      assert.match(JSON.stringify(errors[0]) + String((errors[0] as Error).message ?? ''), /overloaded/i);
    });
  });
});
