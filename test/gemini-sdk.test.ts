// Gemini clients (the official `@google/genai` SDK, and plain fetch for the wire forms) against every
// upstream type of the profile table (helpers/upstream-profiles), each a fake server replaying recorded
// traffic: passed through to the providers that speak generateContent (Gemini, Gemini on Vertex),
// translated for the others, answered in process by the built-in model. Each test also checks what the
// upstream received, in its own protocol.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, GoogleGenAI, type Content, type Tool } from '@google/genai';
import { countTextTokens } from '../server/core/token-counter.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { chunkText, parseGeminiSse, type GeminiChunk } from './helpers/gemini-sse.js';
import { fixtureChunks } from './helpers/upstream-fixtures.js';
import { assertReachedUpstream, assertToolResultSent } from './helpers/upstream-profiles/assert-upstream.js';
import { forwards, paced, streamsUpstream, textAnswer, toolCallAnswer, upstreamProfiles, type ProfileSetup, type Reply } from './helpers/upstream-profiles/index.js';

const weather = (name: string): Tool[] => [
  {
    functionDeclarations: [
      { name, description: 'Current weather for a location.', parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
    ],
  },
];

/** What the built-in model answers to "Hello gateway". */
const echoed = 'You said: Hello gateway';

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  const forwarded = side !== undefined && forwards(side, 'gemini');
  /** The text a client reads, streamed and whole. */
  const text = {
    streamed: side ? side.text.stream.text : echoed,
    whole: side ? textAnswer(side, 'gemini', false).text : echoed,
  };

  describe(`@google/genai on a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    let ai: GoogleGenAI;
    before(async () => {
      setup = await profile.start();
      ai = new GoogleGenAI({ apiKey: setup.gateway.apiKey, httpOptions: { baseUrl: setup.gateway.origin } });
    });
    after(() => setup.close());

    const enqueue = (pick: () => Reply) => {
      if (side) setup.upstream!.enqueue(pick());
    };
    const lastRequest = () => setup.upstream?.requests.at(-1);
    const checkUpstream = (conversation: Array<[string, string]>, streamed: boolean) => {
      const request = lastRequest();
      if (!side || !request) return;
      assertReachedUpstream(side, request, streamed);
      assert.deepEqual(side.wire.history(request), conversation);
    };
    const post = (path: string, body: unknown) =>
      fetch(`${setup.gateway.origin}${path}`, { method: 'POST', headers: { 'x-goog-api-key': setup.gateway.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    test('models.generateContent answers with text, finish reason and usage', async () => {
      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      const response = await ai.models.generateContent({ model: setup.model, contents: 'Hello gateway', config: { systemInstruction: 'Be brief.', temperature: 0.5 } });
      assert.equal(response.text, text.whole);
      assert.equal(response.candidates?.[0]?.finishReason, 'STOP');
      assert.ok((response.usageMetadata?.promptTokenCount ?? 0) > 0 && (response.usageMetadata?.totalTokenCount ?? 0) > 0);
      assert.ok(response.responseId);
      checkUpstream([['user', 'Hello gateway']], side ? streamsUpstream(side, 'gemini', false) : false);
    });

    test('models.generateContentStream streams the answer in several chunks, finish and usage on the last', async () => {
      enqueue(() => side!.text.stream.reply);
      const chunks = [];
      for await (const chunk of await ai.models.generateContentStream({ model: setup.model, contents: 'Hello gateway' })) chunks.push(chunk);
      assert.ok(chunks.length > 1, `${chunks.length} chunks`);
      assert.equal(chunks.map((chunk) => chunk.text ?? '').join(''), text.streamed);
      assert.equal(chunks.at(-1)!.candidates?.[0]?.finishReason, 'STOP');
      assert.ok((chunks.at(-1)!.usageMetadata?.totalTokenCount ?? 0) > 0);
      checkUpstream([['user', 'Hello gateway']], true);
    });

    test('alt=sse is data-only frames, no [DONE], every chunk a GenerateContentResponse', async () => {
      enqueue(() => side!.text.stream.reply);
      const response = await post(`/v1beta/models/${setup.model}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(response.headers.get('x-gateway-model'), setup.model);
      const body = await response.text();
      const chunks = parseGeminiSse(body);
      assert.equal(chunks.map(chunkText).join(''), text.streamed);
      assert.ok(chunks.every((chunk) => chunk.candidates?.[0]?.content?.role === 'model' && (chunk.candidates[0].content.parts ?? []).length > 0));
      if (forwarded) {
        assert.deepEqual(chunks.map((chunk) => JSON.stringify(chunk)), fixtureChunks('gemini/stream-text.chunks.txt'), 'passed through verbatim');
      }
    });

    test('without alt the stream is one JSON array, written element by element', async () => {
      enqueue(() => paced(side!.text.stream.reply, 30));
      const response = await post(`/v1beta/models/${setup.model}:streamGenerateContent`, { contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const pieces: string[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(decoder.decode(read.value, { stream: true }));
      assert.ok(pieces[0]!.startsWith('['));
      if (side) assert.ok(pieces.length > 2, `arrived in ${pieces.length} pieces, not buffered whole`);
      const chunks = JSON.parse(pieces.join('')) as GeminiChunk[];
      assert.ok(Array.isArray(chunks) && chunks.length > 1);
      for (const chunk of chunks) assertMatchesSchema('GeminiGenerateContentResponse', chunk);
      assert.equal(chunks.map(chunkText).join(''), text.streamed);
      assert.equal(chunks.at(-1)!.candidates?.[0]?.finishReason, 'STOP');
    });

    test('a function call round trip: the result reaches the upstream matched to its call', async () => {
      const callAnswer = side && toolCallAnswer(side, 'gemini', false);
      const tools = weather(callAnswer?.name ?? 'weather');
      const question: Content = { role: 'user', parts: [{ text: 'What is the weather in San Francisco?' }] };
      enqueue(() => callAnswer!.reply);
      const first = await ai.models.generateContent({ model: setup.model, contents: [question], config: { tools } });
      const call = first.functionCalls?.[0];
      assert.equal(call?.name, callAnswer?.name ?? 'weather');
      assert.equal(typeof call?.args, 'object');

      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      const second = await ai.models.generateContent({
        model: setup.model,
        contents: [question, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: call!.name!, response: { output: { temperature: 58 } } } }] }],
        config: { tools },
      });
      if (!side || !callAnswer) {
        assert.equal(second.text, 'Tool weather returned: {"temperature":58}');
        return;
      }
      assert.equal(second.text, text.whole);
      // Forwarded, Gemini's own response object arrives as it was sent; translated, its output is the result.
      assertToolResultSent(side, lastRequest()!, { answer: callAnswer, content: forwarded ? { output: { temperature: 58 } } : { temperature: 58 } });
    });

    test('chats keep the conversation across turns', async () => {
      const chat = ai.chats.create({ model: setup.model, config: { systemInstruction: 'Be brief.' } });
      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      const first = await chat.sendMessage({ message: 'Hello gateway' });
      assert.equal(first.text, text.whole);
      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      const second = await chat.sendMessage({ message: 'And once more' });
      assert.equal(second.text, side ? text.whole : 'You said: And once more');
      checkUpstream(
        [
          ['user', 'Hello gateway'],
          ['assistant', text.whole],
          ['user', 'And once more'],
        ],
        side ? streamsUpstream(side, 'gemini', false) : false,
      );
    });

    test('a streamed chat turn comes back as one model turn', async () => {
      const chat = ai.chats.create({ model: setup.model });
      enqueue(() => side!.text.stream.reply);
      let streamed = '';
      for await (const chunk of await chat.sendMessageStream({ message: 'Hello gateway' })) streamed += chunk.text ?? '';
      assert.equal(streamed, text.streamed);
      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      await chat.sendMessage({ message: 'And once more' });
      const request = lastRequest();
      if (!side || !request || forwarded) return; // a pass-through sends the SDK's history as it is
      assert.deepEqual(side.wire.history(request), [
        ['user', 'Hello gateway'],
        ['assistant', text.streamed],
        ['user', 'And once more'],
      ]);
    });

    test(`models.countTokens: ${side?.count ? "the upstream's own count" : 'the gateway’s estimate, no upstream call'}`, async () => {
      const before = setup.upstream?.requests.length ?? 0;
      if (side?.count) setup.upstream!.enqueue(side.count.reply(42));
      const counted = await ai.models.countTokens({ model: setup.model, contents: 'How many tokens is this?' });
      if (side?.count) {
        assert.equal(counted.totalTokens, 42);
        assert.equal(lastRequest()!.url, side.count.path);
      } else {
        // One user turn: 3 tokens of framing, 3 priming the reply (core/token-counter.ts).
        assert.equal(counted.totalTokens, countTextTokens('How many tokens is this?') + 6);
        assert.equal(setup.upstream?.requests.length ?? 0, before);
      }
    });

    test('models.list pages through the models; models.get finds one', async () => {
      const names: string[] = [];
      for await (const model of await ai.models.list({ config: { pageSize: 1 } })) names.push(model.name!);
      assert.ok(names.includes(`models/${setup.model}`), names.join(', '));
      const model = await ai.models.get({ model: setup.model });
      assert.equal(model.name, `models/${setup.model}`);
      assert.ok(model.supportedActions?.includes('generateContent'));
    });

    test('the v1 API version serves generateContent and streamGenerateContent too', async () => {
      const v1 = new GoogleGenAI({ apiKey: setup.gateway.apiKey, httpOptions: { baseUrl: setup.gateway.origin, apiVersion: 'v1' } });
      enqueue(() => textAnswer(side!, 'gemini', false).reply);
      assert.equal((await v1.models.generateContent({ model: setup.model, contents: 'Hello gateway' })).text, text.whole);
      checkUpstream([['user', 'Hello gateway']], side ? streamsUpstream(side, 'gemini', false) : false);
      enqueue(() => side!.text.stream.reply);
      let streamed = '';
      for await (const chunk of await v1.models.generateContentStream({ model: setup.model, contents: 'Hello gateway' })) streamed += chunk.text ?? '';
      assert.equal(streamed, text.streamed);
    });
  });
}

describe('@google/genai errors', () => {
  let setup: ProfileSetup;
  before(async () => (setup = await upstreamProfiles.find((profile) => profile.type === 'builtin')!.start()));
  after(() => setup.close());

  const apiError = (status: number, googleStatus: string) => (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, status);
    assert.equal((JSON.parse(error.message) as { error: { status: string } }).error.status, googleStatus);
    return true;
  };

  test('an unknown model is 404 NOT_FOUND, on every method', async () => {
    const ai = new GoogleGenAI({ apiKey: setup.gateway.apiKey, httpOptions: { baseUrl: setup.gateway.origin } });
    await assert.rejects(ai.models.generateContent({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.generateContentStream({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.countTokens({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.get({ model: 'no-such-model' }), apiError(404, 'NOT_FOUND'));
  });

  test('a wrong key is 401 UNAUTHENTICATED, which the SDK throws as an ApiError', async () => {
    const ai = new GoogleGenAI({ apiKey: 'sk-gw-wrong', httpOptions: { baseUrl: setup.gateway.origin } });
    await assert.rejects(ai.models.generateContent({ model: 'builtin/echo', contents: 'x' }), apiError(401, 'UNAUTHENTICATED'));
    await assert.rejects(ai.models.generateContentStream({ model: 'builtin/echo', contents: 'x' }), apiError(401, 'UNAUTHENTICATED'));
    assert.ok(setup.gateway.logs.every((line) => !line.includes('sk-gw-wrong')));
  });
});
