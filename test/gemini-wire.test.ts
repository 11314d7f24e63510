// generateContent on the wire: what a Gemini upstream receives when it is passed through, what the others
// receive when translated, capability gating, refusals, and failures before and after a stream began.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, GoogleGenAI, Type, type Content } from '@google/genai';
import { decodeReasoningState } from '../server/protocols/openai-responses/reasoning-state.js';
import type { RecordedRequest } from './helpers/fake-upstream.js';
import { parseGeminiSse } from './helpers/gemini-sse.js';
import { fixtureChunks, fixtureJson, fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, tinyPng, upstreamKey, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const body = (request: RecordedRequest) => request.json as Body;

const hello = { contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] };
const sdk = (setup: UpstreamGateway) => new GoogleGenAI({ apiKey: setup.gateway.apiKey, httpOptions: { baseUrl: setup.gateway.origin } });
const post = (setup: UpstreamGateway, path: string, payload: unknown, headers: Record<string, string> = { 'x-goog-api-key': setup.gateway.apiKey }) =>
  fetch(`${setup.gateway.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) });

describe('pass-through to a Gemini upstream', () => {
  let setup: UpstreamGateway;
  // With `reasoning` (opt-in), so that thinkingConfig is not dropped.
  before(async () => (setup = await startUpstreamGateway('gemini', { model: { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'] } })));
  after(() => setup.close());

  test('the body goes as the client sent it, only the model path and the key rewritten', async () => {
    const request = {
      ...hello,
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generationConfig: { candidateCount: 2, temperature: 0.3, thinkingConfig: { thinkingLevel: 'LOW' } },
      tools: [{ googleSearch: {} }],
      someFutureField: { kept: true },
    };
    setup.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
    const response = await post(setup, `/v1beta/models/test-model:generateContent?key=${setup.gateway.apiKey}`, request, {});
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), fixtureJson('gemini/non-stream-text.json'), "the upstream's answer, as it came");
    assert.equal(response.headers.get('x-gateway-provider'), 'fake');
    const sent = setup.upstream.requests.at(-1)!;
    assert.equal(sent.url, `/v1beta/models/${upstreamModel}:generateContent`, 'no key in the upstream URL');
    assert.equal(sent.headers['x-goog-api-key'], upstreamKey);
    assert.deepEqual(sent.json, request);
  });

  test('a stream goes to streamGenerateContent?alt=sse, also when the client wants a JSON array', async () => {
    for (const alt of ['?alt=sse', '']) {
      setup.upstream.enqueue({ fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' });
      const response = await post(setup, `/v1/models/test-model:streamGenerateContent${alt}`, hello);
      const text = await response.text();
      assert.equal(setup.upstream.requests.at(-1)!.url, `/v1beta/models/${upstreamModel}:streamGenerateContent?alt=sse`);
      const chunks = alt ? parseGeminiSse(text) : (JSON.parse(text) as unknown[]);
      assert.deepEqual(chunks.map((chunk) => JSON.stringify(chunk)), fixtureChunks('gemini/stream-function-call.chunks.txt'));
    }
  });

  test('a payload the upstream spread over several data: lines still goes out as one frame', async () => {
    const chunks = fixtureChunks('gemini/stream-text.chunks.txt').map((line) => JSON.stringify(JSON.parse(line), null, 1));
    setup.upstream.enqueue({ sse: chunks.map((chunk) => chunk.split('\n').map((line) => `data: ${line}\r\n`).join('') + '\r\n').join('') });
    const response = await post(setup, '/v1beta/models/test-model:streamGenerateContent?alt=sse', hello);
    const parsed = parseGeminiSse(await response.text());
    assert.deepEqual(parsed, chunks.map((chunk) => JSON.parse(chunk)));
  });

  test("the upstream's refusal keeps its status and words; a failure before the answer is retried", async () => {
    setup.upstream.enqueue({ status: 400, fixture: 'gemini/error-invalid-argument.json', protocol: 'gemini' });
    await assert.rejects(sdk(setup).models.generateContent({ model: 'test-model', contents: 'x' }), (error: ApiError) => {
      assert.equal(error.status, 400);
      assert.deepEqual(JSON.parse(error.message), { error: { code: 400, message: 'Penalty is not enabled for models/gemini-2.5-flash', status: 'INVALID_ARGUMENT' } });
      return true;
    });
    const before = setup.upstream.requests.length;
    setup.upstream.enqueue(
      { sse: [{ data: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}' }] },
      { fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' },
    );
    let text = '';
    for await (const chunk of await sdk(setup).models.generateContentStream({ model: 'test-model', contents: 'x' })) text += chunk.text ?? '';
    assert.equal(text, 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    assert.equal(setup.upstream.requests.length, before + 2, 'the in-band refusal was retried before anything reached the client');
  });

  test('an error chunk after the answer began reaches the client as it came, and the SDK throws it', async () => {
    const [first] = fixtureSseEvents('gemini/stream-text.chunks.txt', 'gemini');
    const failure = '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}';
    setup.upstream.enqueue({ sse: [first!, { data: failure }] });
    const chunks: string[] = [];
    await assert.rejects(async () => {
      for await (const chunk of await sdk(setup).models.generateContentStream({ model: 'test-model', contents: 'x' })) chunks.push(chunk.text ?? '');
    }, (error: ApiError) => error.status === 500 && error.message.includes('An internal error has occurred.'));
    assert.deepEqual(chunks, ['There are **3**']);
  });

  test('countTokens asks the upstream with the whole request', async () => {
    setup.upstream.enqueue({ json: { totalTokens: 17 } });
    const response = await post(setup, '/v1beta/models/test-model:countTokens', { generateContentRequest: { ...hello, systemInstruction: { parts: [{ text: 'Be brief.' }] } } });
    assert.deepEqual(await response.json(), { totalTokens: 17 });
    assert.deepEqual(body(setup.upstream.requests.at(-1)!), {
      generateContentRequest: {
        model: `models/${upstreamModel}`,
        contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
  });
});

describe('capability gating on Gemini requests', () => {
  const request = {
    ...hello,
    tools: [{ functionDeclarations: [{ name: 'weather' }] }],
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    generationConfig: { temperature: 0.1, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
  };

  for (const type of ['gemini', 'openai'] as const) {
    test(`${type}: what the model lacks is dropped upstream and named in x-gateway-dropped-params`, async () => {
      const setup = await startUpstreamGateway(type, { model: { capabilities: ['chat', 'streaming'] } });
      try {
        setup.upstream.enqueue(type === 'gemini' ? { fixture: 'gemini/non-stream-text.json', protocol: 'gemini' } : { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
        const response = await post(setup, '/v1beta/models/test-model:generateContent', request);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('x-gateway-dropped-params'), 'tools, toolConfig, generationConfig.thinkingConfig');
        const sent = body(setup.upstream.requests[0]!);
        if (type === 'gemini') assert.deepEqual(sent, { contents: hello.contents, generationConfig: { temperature: 0.1 } });
        else assert.ok(!('tools' in sent) && !('reasoning_effort' in sent) && sent.temperature === 0.1, JSON.stringify(sent));
      } finally {
        await setup.close();
      }
    });
  }

  test('countTokens counts what generateContent would send: the dropped fields are not counted', async () => {
    const setup = await startUpstreamGateway('openai', { model: { capabilities: ['chat', 'streaming'] } });
    try {
      const count = async (payload: object) => {
        const response = await post(setup, '/v1beta/models/test-model:countTokens', { generateContentRequest: payload });
        return { total: ((await response.json()) as Body).totalTokens as number, dropped: response.headers.get('x-gateway-dropped-params') };
      };
      const gated = await count(request);
      assert.deepEqual(gated, { total: (await count(hello)).total, dropped: 'tools, toolConfig, generationConfig.thinkingConfig' });
      assert.equal(setup.upstream.requests.length, 0, 'an estimate');
    } finally {
      await setup.close();
    }
  });

  test('with on_unsupported: reject the request is refused, naming the field', async () => {
    const setup = await startUpstreamGateway('anthropic', { model: { capabilities: ['chat', 'streaming'], on_unsupported: 'reject' } });
    try {
      const response = await post(setup, '/v1beta/models/test-model:streamGenerateContent?alt=sse', request);
      assert.equal(response.status, 400);
      const { error } = (await response.json()) as Body;
      assert.equal(error.status, 'INVALID_ARGUMENT');
      assert.match(error.message, /does not support tools/);
      assert.equal(setup.upstream.requests.length, 0);
    } finally {
      await setup.close();
    }
  });
});

describe('translation for other upstreams', () => {
  test('Gemini-only features are refused with 400 before any upstream call', async () => {
    const setup = await startUpstreamGateway('openai');
    try {
      for (const [extra, field] of [
        [{ generationConfig: { candidateCount: 2 } }, 'generationConfig.candidateCount'],
        [{ tools: [{ googleSearch: {} }] }, 'tools[0].googleSearch'],
        [{ cachedContent: 'cachedContents/abc' }, 'cachedContent'],
      ] as const) {
        const response = await post(setup, '/v1beta/models/test-model:generateContent', { ...hello, ...extra });
        assert.equal(response.status, 400);
        const { error } = (await response.json()) as Body;
        assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'status']);
        assert.equal(error.status, 'INVALID_ARGUMENT');
        assert.ok(error.message.includes(field), error.message);
      }
      assert.equal(setup.upstream.requests.length, 0);
    } finally {
      await setup.close();
    }
  });

  test('OpenAI gets Gemini Schemas as JSON Schema, the calling mode as tool_choice, JSON output as response_format', async () => {
    const setup = await startUpstreamGateway('openai');
    try {
      setup.upstream.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
      await sdk(setup).models.generateContent({
        model: 'test-model',
        contents: 'Weather?',
        config: {
          systemInstruction: 'Be brief.',
          tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING, nullable: true } }, required: ['city'] } }] }],
          toolConfig: { functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['weather'] } },
          responseMimeType: 'application/json',
          responseSchema: { type: Type.OBJECT, properties: { answer: { type: Type.STRING } } },
          maxOutputTokens: 300,
          stopSequences: ['###'],
          topP: 0.5,
        },
      });
      const sent = body(setup.upstream.requests[0]!);
      assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be brief.' });
      assert.deepEqual(sent.tools[0].function.parameters, { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'] });
      assert.deepEqual(sent.tool_choice, { type: 'function', function: { name: 'weather' } });
      assert.deepEqual(sent.response_format.json_schema.schema, { type: 'object', properties: { answer: { type: 'string' } } });
      assert.equal(sent.max_completion_tokens, 300);
      assert.deepEqual(sent.stop, ['###']);
      assert.equal(sent.top_p, 0.5);
    } finally {
      await setup.close();
    }
  });

  test('Anthropic gets images, sampling settings and the thinking budget; its thinking signature comes back through the client', async () => {
    const setup = await startUpstreamGateway('anthropic', { model: { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'] } });
    try {
      const question: Content = { role: 'user', parts: [{ text: 'What is in this image, divided by 5?' }, { inlineData: { mimeType: 'image/png', data: tinyPng.split(',')[1]! } }] };
      const config = { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true }, topP: 0.9, maxOutputTokens: 8000 };
      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' });
      const first = await sdk(setup).models.generateContent({ model: 'test-model', contents: [question], config });
      const sent = body(setup.upstream.requests[0]!);
      assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 2048 });
      assert.equal(sent.max_tokens, 8000);
      assert.deepEqual(sent.messages[0].content[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: tinyPng.split(',')[1] } });

      const parts = first.candidates![0]!.content!.parts!;
      const thought = parts.find((part) => part.thought)!;
      assert.match(thought.text!, /^The previous result was 925/);
      assert.equal(first.text, '925 ÷ 5 = 185');
      const signature = (JSON.parse(fixtureChunks('anthropic-messages/stream-thinking.chunks.txt').find((line) => line.includes('signature_delta'))!) as Body).delta.signature;
      assert.deepEqual(decodeReasoningState(thought.thoughtSignature!), { signature });

      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
      await sdk(setup).models.generateContent({ model: 'test-model', contents: [question, first.candidates![0]!.content!, { role: 'user', parts: [{ text: 'Thanks' }] }], config });
      const assistant = body(setup.upstream.requests[1]!).messages[1];
      assert.equal(assistant.role, 'assistant');
      assert.deepEqual(assistant.content[0], { type: 'thinking', thinking: thought.text, signature });
    } finally {
      await setup.close();
    }
  });

  test('a stream that breaks after it began ends with an in-band error chunk, which the SDK throws', async () => {
    const setup = await startUpstreamGateway('openai');
    try {
      const cut = fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat').slice(0, 5);
      setup.upstream.enqueue({ sse: cut });
      const response = await post(setup, '/v1beta/models/test-model:streamGenerateContent?alt=sse', hello);
      assert.equal(response.status, 200);
      const text = await response.text();
      const last = JSON.parse(/data: (.*)\n\n$/.exec(text)![1]!) as Body;
      assert.equal(last.error.code, 502);
      assert.equal(last.error.status, 'UNAVAILABLE');

      setup.upstream.enqueue({ sse: cut });
      await assert.rejects(async () => {
        for await (const _chunk of await sdk(setup).models.generateContentStream({ model: 'test-model', contents: 'x' })) {
          // read until the error
        }
      }, (error: ApiError) => error instanceof ApiError && error.status === 502);
    } finally {
      await setup.close();
    }
  });
});
