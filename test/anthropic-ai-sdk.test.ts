// The Vercel AI SDK's Anthropic provider (`createAnthropic({ baseURL: <gateway>/v1 })`) against the gateway's
// Messages API on every upstream type of the profile table (helpers/upstream-profiles): generateText and
// streamText, each running a tool round trip (the SDK calls the tool, sends its result, and gets the final
// answer). The SDK parses every event with its own
// schemas; every raw stream is also checked frame by frame against the spec.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { recordAnthropicStreams } from './helpers/anthropic-stream.js';
import { assertReachedUpstream, assertToolResultSent } from './helpers/upstream-profiles/assert-upstream.js';
import { streamsUpstream, textAnswer, toolCallAnswer, upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';

const wire = recordAnthropicStreams();
afterEach(async () => void (await wire.checked()));

/** The tools the recordings call; each answers with something the next request must carry. */
const tools = {
  multiply: tool({ description: 'Multiply two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => ({ product: a * b }) }),
  weather: tool({
    description: 'Current weather.',
    inputSchema: jsonSchema<{ location: string }>({ type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }),
    execute: async ({ location }) => ({ location, forecast: 'sunny' }),
  }),
};
/** What each tool's execute returns, as the upstream must get it back. */
const toolOutput = { multiply: { product: 2869461 }, weather: { location: 'San Francisco', forecast: 'sunny' } };

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`AI SDK, Anthropic provider over a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    before(async () => (setup = await profile.start()));
    after(() => setup.close());

    const model = () => createAnthropic({ baseURL: `${setup.gateway.origin}/v1`, apiKey: setup.gateway.apiKey, fetch: wire.fetch })(setup.model);

    for (const mode of ['generateText', 'streamText'] as const) {
      test(`${mode} with a tool: the call, the tool's result sent back, and the final answer`, async () => {
        const clientStreams = mode === 'streamText';
        const callAnswer = side && toolCallAnswer(side, 'messages', clientStreams);
        const answer = side && textAnswer(side, 'messages', clientStreams);
        if (callAnswer && answer) setup.upstream!.enqueue(callAnswer.reply, answer.reply);
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
        if (callAnswer && answer) {
          assert.deepEqual({ name: call.toolName, input: call.input }, { name: callAnswer.name, input: callAnswer.input });
          assert.equal(text, answer.text);
        } else {
          assert.equal(call.toolName, 'multiply', 'the built-in model calls the first tool');
          assert.match(text, /multiply/, 'and describes its result');
        }
        assert.equal(steps[1]!.finishReason, 'stop');
        assert.ok(steps[1]!.usage.inputTokens! > 0 && steps[1]!.usage.outputTokens! > 0, 'usage per step');
        if (!side || !callAnswer) return;
        // The second step's upstream request carries the tool's output, in the upstream's own protocol.
        const request = setup.upstream!.requests.at(-1)!;
        assertReachedUpstream(side, request, streamsUpstream(side, 'messages', clientStreams));
        assertToolResultSent(side, request, { answer: callAnswer, content: toolOutput[call.toolName as keyof typeof toolOutput] });
      });
    }
  });
}
