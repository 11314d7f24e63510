// The Vercel AI SDK's Google provider (`@ai-sdk/google`) against the gateway's generateContent surface, on
// every upstream type of the profile table (helpers/upstream-profiles): generateText, and streamText
// running a tool over two steps. The SDK puts model IDs that contain `/` straight after the base URL (it
// takes them for resource names such as `tunedModels/x`): `/v1beta/builtin/echo:generateContent`, which
// the gateway serves as it is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { assertReachedUpstream, assertToolResultSent } from './helpers/upstream-profiles/assert-upstream.js';
import { forwards, streamsUpstream, textAnswer, upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`Vercel AI SDK (@ai-sdk/google) on a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    let google: ReturnType<typeof createGoogleGenerativeAI>;
    before(async () => {
      setup = await profile.start();
      google = createGoogleGenerativeAI({ baseURL: `${setup.gateway.origin}/v1beta`, apiKey: setup.gateway.apiKey });
    });
    after(() => setup.close());

    test('generateText', async () => {
      const answer = side && textAnswer(side, 'gemini', false);
      if (answer) setup.upstream!.enqueue(answer.reply);
      const result = await generateText({ model: google(setup.model), system: 'Be brief.', prompt: 'Hello gateway' });
      assert.equal(result.text, answer?.text ?? 'You said: Hello gateway');
      assert.equal(result.finishReason, 'stop');
      assert.ok((result.usage.inputTokens ?? 0) > 0);
      if (!side) return;
      const request = setup.upstream!.requests.at(-1)!;
      assertReachedUpstream(side, request, streamsUpstream(side, 'gemini', false));
      assert.deepEqual(side.wire.history(request), [['user', 'Hello gateway']]);
    });

    test('streamText runs a tool and answers with its result', async () => {
      const callAnswer = side?.toolCall.stream;
      if (side) setup.upstream!.enqueue(side.toolCall.stream.reply, side.text.stream.reply);
      const executed: unknown[] = [];
      const result = streamText({
        model: google(setup.model),
        prompt: 'What is the weather in San Francisco?',
        tools: {
          [callAnswer?.name ?? 'weather']: tool({
            description: 'Current weather for a location.',
            inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', properties: { location: { type: 'string' } } }),
            execute: async (input) => {
              executed.push(input);
              return { temperature: 58 };
            },
          }),
        },
        stopWhen: stepCountIs(2),
      });
      const errors: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
      assert.deepEqual(errors, []);
      assert.equal(executed.length, 1, 'the tool ran once');
      assert.equal(await result.text, side ? side.text.stream.text : 'Tool weather returned: {"temperature":58}');
      if (!side || !callAnswer) return;

      const request = setup.upstream!.requests.at(-1)!;
      assertReachedUpstream(side, request, true);
      // Forwarded, the SDK's own call ID, the thought signature and the SDK's response object reach the
      // upstream as the SDK sent them; translated, the tool's output is the result.
      const content = forwards(side, 'gemini') ? { name: 'weather', content: { temperature: 58 } } : { temperature: 58 };
      assertToolResultSent(side, request, { answer: callAnswer, content });
    });
  });
}
