// Chat Completions clients (the official `openai` SDK) against every upstream type of the profile table
// (helpers/upstream-profiles), each a fake server replaying recorded traffic: passed through to the
// providers that speak Chat Completions, translated for the others. Each test also checks what the
// upstream received, in its own protocol.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startUpstreamGateway, tinyPng, upstreamKey, upstreamModel } from './helpers/upstream-gateway.js';
import { fixtureChunks } from './helpers/upstream-fixtures.js';
import { streamsUpstream, textAnswer, toolCallAnswer, upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';
import { assertReachedUpstream, assertToolResultSent } from './helpers/upstream-profiles/assert-upstream.js';
import type { RecordedRequest } from './helpers/fake-upstream.js';

type Body = Record<string, any>;

const body = (request: RecordedRequest) => request.json as Body;
const openaiStreamText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).choices[0]?.delta.content ?? '')
  .join('');
const pngData = tinyPng.split(',')[1]!;

const lookupTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'lookup', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  // The built-in model has no upstream to check; openai-sdk.test.ts drives its Chat Completions.
  describe(`Chat Completions over a ${profile.name} upstream`, { skip: side ? false : 'no upstream: the built-in model is covered by openai-sdk.test.ts' }, () => {
    if (!side) return;
    let setup: ProfileSetup;
    let openai: OpenAI;
    before(async () => {
      setup = await profile.start();
      openai = new OpenAI({ apiKey: setup.gateway.apiKey, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0 });
    });
    after(() => setup.close());

    const upstream = () => setup.upstream!;
    const lastRequest = () => upstream().requests.at(-1)!;

    test('the strict stream helper assembles the streamed answer', async () => {
      const answer = textAnswer(side, 'chat', true);
      upstream().enqueue(answer.reply);
      const stream = openai.chat.completions.stream({
        model: setup.model,
        messages: [{ role: 'user', content: 'Hello' }],
        stream_options: { include_usage: true },
      });
      const completion = await stream.finalChatCompletion();
      assert.equal(completion.choices[0]!.message.content, answer.text);
      assert.equal(completion.choices[0]!.finish_reason, 'stop');
      assert.equal(completion.usage?.prompt_tokens, side.text.usage.input);
      assert.equal(completion.usage?.completion_tokens, side.text.usage.output);
      assertReachedUpstream(side, lastRequest(), true);
    });

    test('a non-stream request gets one chat.completion with usage', async () => {
      const answer = textAnswer(side, 'chat', false);
      upstream().enqueue(answer.reply);
      const completion = await openai.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(completion.object, 'chat.completion');
      assert.equal(completion.choices[0]!.message.content, answer.text);
      assert.ok(completion.usage && completion.usage.prompt_tokens > 0 && completion.usage.completion_tokens > 0);
      assertReachedUpstream(side, lastRequest(), streamsUpstream(side, 'chat', false));
    });

    test('a tool call round trip reaches the upstream in its own protocol', async () => {
      const callAnswer = toolCallAnswer(side, 'chat', true);
      upstream().enqueue(callAnswer.reply);
      const stream = openai.chat.completions.stream({
        model: setup.model,
        messages: [{ role: 'user', content: 'Population of Paris?' }],
        tools: [lookupTool],
      });
      const first = await stream.finalChatCompletion();
      const call = first.choices[0]!.message.tool_calls?.[0];
      assert.ok(call && call.type === 'function', 'a tool call came back');
      assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
      assert.equal(call.function.name, callAnswer.name);
      assert.deepEqual(JSON.parse(call.function.arguments), callAnswer.input);

      const answer = textAnswer(side, 'chat', false);
      upstream().enqueue(answer.reply);
      const second = await openai.chat.completions.create({
        model: setup.model,
        tools: [lookupTool],
        messages: [
          { role: 'user', content: 'Population of Paris?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: '{"population": 1000}' },
        ],
      });
      assert.equal(second.choices[0]!.message.content, answer.text);
      assertToolResultSent(side, lastRequest(), { answer: callAnswer, content: { population: 1000 }, callId: call.id.split('__ts_')[0]! });
    });

    test('image input reaches the upstream', async () => {
      upstream().enqueue(textAnswer(side, 'chat', false).reply);
      await openai.chat.completions.create({
        model: setup.model,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: tinyPng } }] }],
      });
      assert.deepEqual(side.wire.image(lastRequest()), { mediaType: 'image/png', data: pngData });
    });

    test("an upstream 400 keeps the upstream's message; refused upstream credentials never reach the client", async () => {
      upstream().enqueue(side.refusal.badRequest('Unsupported value: temperature'));
      await assert.rejects(
        openai.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'x' }] }),
        (error: InstanceType<typeof OpenAI.BadRequestError>) => error.status === 400 && error.message.includes('Unsupported value: temperature'),
      );
      upstream().enqueue(side.refusal.badCredentials(`Incorrect API key provided: ${upstreamKey}`));
      await assert.rejects(
        openai.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'x' }] }),
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
