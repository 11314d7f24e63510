// The Vercel AI SDK's Google provider (`@ai-sdk/google`) against the gateway's generateContent surface, on
// every upstream type: generateText, and streamText running a tool over two steps. The SDK puts model IDs
// that contain `/` straight after the base URL (it takes them for resource names such as
// `tunedModels/x`): `/v1beta/builtin/echo:generateContent`, which the gateway serves as it is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { body, geminiProfiles, startGeminiSetup, type GeminiSetup } from './helpers/gemini-profiles.js';
import type { FakeReply } from './helpers/fake-upstream.js';
import { fixtureChunks } from './helpers/upstream-fixtures.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The streamed tool call each upstream type replays (the profiles' calls answer non-stream requests). */
const streamedToolCall: Partial<Record<string, FakeReply>> = {
  openai: { fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' },
  'openai-compatible': { fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' },
  anthropic: { fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' },
  gemini: { fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' },
};

for (const profile of geminiProfiles) {
  describe(`Vercel AI SDK (@ai-sdk/google) on a ${profile.type} upstream`, () => {
    let setup: GeminiSetup;
    let google: ReturnType<typeof createGoogleGenerativeAI>;
    const modelId = profile.model;
    before(async () => {
      setup = await startGeminiSetup(profile);
      google = createGoogleGenerativeAI({ baseURL: `${setup.origin}/v1beta`, apiKey: setup.apiKey });
    });
    after(() => setup.close());

    test('generateText', async () => {
      if (profile.replies) setup.upstream!.enqueue(profile.replies.nonStream);
      const result = await generateText({ model: google(modelId), system: 'Be brief.', prompt: 'Hello gateway' });
      assert.equal(result.text, profile.text.whole);
      assert.equal(result.finishReason, 'stop');
      assert.ok((result.usage.inputTokens ?? 0) > 0);
      const request = setup.upstream?.requests.at(-1);
      if (request) {
        profile.reached(request);
        assert.deepEqual(profile.history(request), [['user', 'Hello gateway']]);
      }
    });

    test('streamText runs a tool and answers with its result', async () => {
      if (profile.replies) setup.upstream!.enqueue(streamedToolCall[profile.type]!, profile.replies.stream);
      const executed: unknown[] = [];
      const result = streamText({
        model: google(modelId),
        prompt: 'What is the weather in San Francisco?',
        tools: {
          [profile.toolName]: tool({
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
      assert.equal(await result.text, profile.type === 'builtin' ? 'Tool weather returned: {"temperature":58}' : profile.text.streamed);

      const request = setup.upstream?.requests.at(-1);
      if (!request) return;
      assert.match(request.url, /:streamGenerateContent\?alt=sse$|\/chat\/completions$|\/v1\/messages$/);
      if (profile.type !== 'gemini') {
        profile.toolResultSent(request, { temperature: 58 });
        return;
      }
      // Passed through: the SDK's own call ID and the thought signature reach Gemini as the SDK sent them.
      const [, model, user] = body(request).contents as Body[];
      const signature = (JSON.parse(fixtureChunks('gemini/stream-function-call.chunks.txt')[0]!) as Body).candidates[0].content.parts[0].thoughtSignature;
      assert.equal(model!.parts[0].thoughtSignature, signature);
      assert.equal(user!.parts[0].functionResponse.id, model!.parts[0].functionCall.id);
      assert.deepEqual(user!.parts[0].functionResponse.response, { name: 'weather', content: { temperature: 58 } });
    });
  });
}
