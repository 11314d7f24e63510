// Gemini clients (the official `@google/genai` SDK, and plain fetch for the wire forms) against every
// upstream type, each a fake server replaying recorded traffic: passed through to Gemini, translated for
// OpenAI, OpenAI-compatible servers and Anthropic, answered in process by the built-in model. Each test
// also checks what the upstream received, in its own protocol.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, GoogleGenAI, type Content, type Tool } from '@google/genai';
import { countTextTokens } from '../server/core/token-counter.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import type { FakeReply } from './helpers/fake-upstream.js';
import { chunkText, geminiProfiles, parseGeminiSse, startGeminiSetup, type GeminiChunk, type GeminiSetup } from './helpers/gemini-profiles.js';
import { fixtureChunks } from './helpers/upstream-fixtures.js';

const weather = (name: string): Tool[] => [
  {
    functionDeclarations: [
      { name, description: 'Current weather for a location.', parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
    ],
  },
];

for (const profile of geminiProfiles) {
  describe(`@google/genai on a ${profile.type} upstream`, () => {
    let setup: GeminiSetup;
    let ai: GoogleGenAI;
    before(async () => {
      setup = await startGeminiSetup(profile);
      ai = new GoogleGenAI({ apiKey: setup.apiKey, httpOptions: { baseUrl: setup.origin } });
    });
    after(() => setup.close());

    const enqueue = (pick: (replies: NonNullable<typeof profile.replies>) => FakeReply, extra: Partial<FakeReply> = {}) => {
      if (profile.replies) setup.upstream!.enqueue({ ...pick(profile.replies), ...extra } as FakeReply);
    };
    const lastRequest = () => setup.upstream?.requests.at(-1);
    const checkUpstream = (conversation: Array<[string, string]>) => {
      const request = lastRequest();
      if (!request) return;
      profile.reached(request);
      assert.deepEqual(profile.history(request), conversation);
    };
    const post = (path: string, body: unknown) =>
      fetch(`${setup.origin}${path}`, { method: 'POST', headers: { 'x-goog-api-key': setup.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    test('models.generateContent answers with text, finish reason and usage', async () => {
      enqueue((replies) => replies.nonStream);
      const response = await ai.models.generateContent({ model: profile.model, contents: 'Hello gateway', config: { systemInstruction: 'Be brief.', temperature: 0.5 } });
      assert.equal(response.text, profile.text.whole);
      assert.equal(response.candidates?.[0]?.finishReason, 'STOP');
      assert.ok((response.usageMetadata?.promptTokenCount ?? 0) > 0 && (response.usageMetadata?.totalTokenCount ?? 0) > 0);
      assert.ok(response.responseId);
      checkUpstream([['user', 'Hello gateway']]);
    });

    test('models.generateContentStream streams the answer in several chunks, finish and usage on the last', async () => {
      enqueue((replies) => replies.stream);
      const chunks = [];
      for await (const chunk of await ai.models.generateContentStream({ model: profile.model, contents: 'Hello gateway' })) chunks.push(chunk);
      assert.ok(chunks.length > 1, `${chunks.length} chunks`);
      assert.equal(chunks.map((chunk) => chunk.text ?? '').join(''), profile.text.streamed);
      assert.equal(chunks.at(-1)!.candidates?.[0]?.finishReason, 'STOP');
      assert.ok((chunks.at(-1)!.usageMetadata?.totalTokenCount ?? 0) > 0);
      checkUpstream([['user', 'Hello gateway']]);
      if (profile.type !== 'builtin' && profile.type !== 'gemini') assert.equal(lastRequest()!.url.endsWith(':generateContent'), false);
    });

    test('alt=sse is data-only frames, no [DONE], every chunk a GenerateContentResponse', async () => {
      enqueue((replies) => replies.stream);
      const response = await post(`/v1beta/models/${profile.model}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(response.headers.get('x-gateway-model'), profile.model);
      const text = await response.text();
      const chunks = parseGeminiSse(text);
      assert.equal(chunks.map(chunkText).join(''), profile.text.streamed);
      assert.ok(chunks.every((chunk) => chunk.candidates?.[0]?.content?.role === 'model' && (chunk.candidates[0].content.parts ?? []).length > 0));
      if (profile.type === 'gemini') {
        assert.deepEqual(chunks.map((chunk) => JSON.stringify(chunk)), fixtureChunks('gemini/stream-text.chunks.txt'), 'passed through verbatim');
      }
    });

    test('without alt the stream is one JSON array, written element by element', async () => {
      enqueue((replies) => replies.stream, { chunkDelayMs: 30 });
      const response = await post(`/v1beta/models/${profile.model}:streamGenerateContent`, { contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const pieces: string[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(decoder.decode(read.value, { stream: true }));
      assert.ok(pieces[0]!.startsWith('['));
      if (profile.type !== 'builtin') assert.ok(pieces.length > 2, `arrived in ${pieces.length} pieces, not buffered whole`);
      const chunks = JSON.parse(pieces.join('')) as GeminiChunk[];
      assert.ok(Array.isArray(chunks) && chunks.length > 1);
      for (const chunk of chunks) assertMatchesSchema('GeminiGenerateContentResponse', chunk);
      assert.equal(chunks.map(chunkText).join(''), profile.text.streamed);
      assert.equal(chunks.at(-1)!.candidates?.[0]?.finishReason, 'STOP');
    });

    test('a function call round trip: the result reaches the upstream matched to its call', async () => {
      const tools = weather(profile.toolName);
      const question: Content = { role: 'user', parts: [{ text: 'What is the weather in San Francisco?' }] };
      enqueue((replies) => replies.toolCall);
      const first = await ai.models.generateContent({ model: profile.model, contents: [question], config: { tools } });
      const call = first.functionCalls?.[0];
      assert.equal(call?.name, profile.toolName);
      assert.equal(typeof call?.args, 'object');

      enqueue((replies) => replies.nonStream);
      const second = await ai.models.generateContent({
        model: profile.model,
        contents: [question, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: call!.name!, response: { output: { temperature: 58 } } } }] }],
        config: { tools },
      });
      if (profile.type === 'builtin') assert.equal(second.text, 'Tool weather returned: {"temperature":58}');
      else assert.equal(second.text, profile.text.whole);
      const request = lastRequest();
      if (request) profile.toolResultSent(request, { temperature: 58 });
    });

    test('chats keep the conversation across turns', async () => {
      const chat = ai.chats.create({ model: profile.model, config: { systemInstruction: 'Be brief.' } });
      enqueue((replies) => replies.nonStream);
      const first = await chat.sendMessage({ message: 'Hello gateway' });
      assert.equal(first.text, profile.text.whole);
      enqueue((replies) => replies.nonStream);
      const second = await chat.sendMessage({ message: 'And once more' });
      assert.equal(second.text, profile.type === 'builtin' ? 'You said: And once more' : profile.text.whole);
      checkUpstream([
        ['user', 'Hello gateway'],
        ['assistant', profile.text.whole],
        ['user', 'And once more'],
      ]);
    });

    test('a streamed chat turn comes back as one model turn', async () => {
      const chat = ai.chats.create({ model: profile.model });
      enqueue((replies) => replies.stream);
      let streamed = '';
      for await (const chunk of await chat.sendMessageStream({ message: 'Hello gateway' })) streamed += chunk.text ?? '';
      assert.equal(streamed, profile.text.streamed);
      enqueue((replies) => replies.nonStream);
      await chat.sendMessage({ message: 'And once more' });
      const request = lastRequest();
      if (!request || profile.type === 'gemini') return; // a pass-through sends the SDK's history as it is
      assert.deepEqual(profile.history(request), [
        ['user', 'Hello gateway'],
        ['assistant', profile.text.streamed],
        ['user', 'And once more'],
      ]);
    });

    test(`models.countTokens: ${profile.countReply ? "the upstream's own count" : 'the gateway’s estimate, no upstream call'}`, async () => {
      const before = setup.upstream?.requests.length ?? 0;
      if (profile.countReply) setup.upstream!.enqueue(profile.countReply.reply);
      const counted = await ai.models.countTokens({ model: profile.model, contents: 'How many tokens is this?' });
      if (profile.countReply) {
        assert.equal(counted.totalTokens, profile.countReply.total);
        assert.equal(lastRequest()!.url, profile.countReply.path);
      } else {
        // One user turn: 3 tokens of framing, 3 priming the reply (core/token-counter.ts).
        assert.equal(counted.totalTokens, countTextTokens('How many tokens is this?') + 6);
        assert.equal(setup.upstream?.requests.length ?? 0, before);
      }
    });

    test('models.list pages through the models; models.get finds one', async () => {
      const names: string[] = [];
      for await (const model of await ai.models.list({ config: { pageSize: 1 } })) names.push(model.name!);
      assert.ok(names.includes(`models/${profile.model}`), names.join(', '));
      const model = await ai.models.get({ model: profile.model });
      assert.equal(model.name, `models/${profile.model}`);
      assert.ok(model.supportedActions?.includes('generateContent'));
    });

    test('the v1 API version serves generateContent and streamGenerateContent too', async () => {
      const v1 = new GoogleGenAI({ apiKey: setup.apiKey, httpOptions: { baseUrl: setup.origin, apiVersion: 'v1' } });
      enqueue((replies) => replies.nonStream);
      assert.equal((await v1.models.generateContent({ model: profile.model, contents: 'Hello gateway' })).text, profile.text.whole);
      checkUpstream([['user', 'Hello gateway']]);
      enqueue((replies) => replies.stream);
      let streamed = '';
      for await (const chunk of await v1.models.generateContentStream({ model: profile.model, contents: 'Hello gateway' })) streamed += chunk.text ?? '';
      assert.equal(streamed, profile.text.streamed);
    });
  });
}

describe('@google/genai errors', () => {
  let setup: GeminiSetup;
  before(async () => (setup = await startGeminiSetup(geminiProfiles.find((profile) => profile.type === 'builtin')!)));
  after(() => setup.close());

  const apiError = (status: number, googleStatus: string) => (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, status);
    assert.equal((JSON.parse(error.message) as { error: { status: string } }).error.status, googleStatus);
    return true;
  };

  test('an unknown model is 404 NOT_FOUND, on every method', async () => {
    const ai = new GoogleGenAI({ apiKey: setup.apiKey, httpOptions: { baseUrl: setup.origin } });
    await assert.rejects(ai.models.generateContent({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.generateContentStream({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.countTokens({ model: 'no-such-model', contents: 'x' }), apiError(404, 'NOT_FOUND'));
    await assert.rejects(ai.models.get({ model: 'no-such-model' }), apiError(404, 'NOT_FOUND'));
  });

  test('a wrong key is 401 UNAUTHENTICATED, which the SDK throws as an ApiError', async () => {
    const ai = new GoogleGenAI({ apiKey: 'sk-gw-wrong', httpOptions: { baseUrl: setup.origin } });
    await assert.rejects(ai.models.generateContent({ model: 'builtin/echo', contents: 'x' }), apiError(401, 'UNAUTHENTICATED'));
    await assert.rejects(ai.models.generateContentStream({ model: 'builtin/echo', contents: 'x' }), apiError(401, 'UNAUTHENTICATED'));
    assert.ok(setup.logs.every((line) => !line.includes('sk-gw-wrong')));
  });
});
