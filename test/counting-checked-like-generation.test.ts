// Counting endpoints reach an upstream with the body a generation would send, so they are checked like one:
// `POST /v1/messages/count_tokens` refuses for access reasons exactly what `POST /v1/messages` refuses, and
// Gemini's `:countTokens` exactly what `:generateContent` refuses, with the same message, and a refusal
// sends nothing upstream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { tinyPng, upstreamKey } from './helpers/upstream-gateway.js';

type Body = Record<string, unknown>;
interface Answer {
  status: number;
  message?: string;
}

const metadataImage = 'http://169.254.169.254/x.png';
const pngData = tinyPng.split(',')[1]!;

let claude: FakeUpstream;
let gemini: FakeUpstream;
let gateway: TestGateway;
const keys: Record<'wide' | 'none' | 'vision' | 'capped', string> = { wide: '', none: '', vision: '', capped: '' };

before(async () => {
  [claude, gemini] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'claude', type: 'anthropic', base_url: claude.origin, api_key: upstreamKey },
      { id: 'google', type: 'gemini', base_url: gemini.origin, api_key: upstreamKey },
    ],
    models: [
      { id: 'claude-model', provider: 'claude', upstream_model: 'claude-sonnet-4-5' },
      { id: 'gemini-model', provider: 'google', upstream_model: 'gemini-2.5-flash' },
    ],
  });
  gateway = await startGateway({ config });
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name: 'team' });
  keys.wide = (await admin.createKey(account.id, { name: 'wide' })).key;
  keys.none = (await admin.createKey(account.id, { name: 'none', permissions: { capabilities: [] } })).key;
  keys.vision = (await admin.createKey(account.id, { name: 'vision', permissions: { capabilities: ['vision'] } })).key;
  keys.capped = (await admin.createKey(account.id, { name: 'capped', permissions: { capabilities: ['tools', 'vision', 'reasoning'], max_output_tokens: 2000 } })).key;
});
after(async () => {
  await gateway.close();
  await Promise.all([claude.close(), gemini.close()]);
});

/** Counts are answered with a count, generations with a recorded answer. */
const isCount = (request: RecordedRequest) => /count_tokens|:countTokens/.test(request.url);
const answers = {
  claude: (request: RecordedRequest) =>
    isCount(request) ? { json: { input_tokens: 7 } } : { fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' as const },
  gemini: (request: RecordedRequest) => (isCount(request) ? { json: { totalTokens: 7 } } : { fixture: 'gemini/non-stream-text.json', protocol: 'gemini' as const }),
};

/** One call as `key`; a refusal must have sent nothing upstream. */
async function send(upstream: FakeUpstream, path: string, key: string, body: Body): Promise<Answer> {
  const before = upstream.requests.length;
  upstream.enqueue({ respond: upstream === claude ? answers.claude : answers.gemini });
  const response = await fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'x-goog-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { error?: { message?: string } };
  upstream.discardQueued();
  if (response.status === 403) assert.equal(upstream.requests.length, before, `${path} refused, yet forwarded ${upstream.requests.at(-1)?.body}`);
  return { status: response.status, message: json.error?.message };
}

const generate = (key: string, body: Body) => send(claude, '/v1/messages', key, { max_tokens: 500, ...body });
const countMessages = (key: string, body: Body) => send(claude, '/v1/messages/count_tokens', key, body);
const generateGemini = (key: string, body: Body) => send(gemini, '/v1beta/models/gemini-model:generateContent', key, body);
const countGemini = (key: string, body: Body) => send(gemini, '/v1beta/models/gemini-model:countTokens', key, body);

const question = (content: unknown[] | string = 'How many tokens?') => ({ model: 'claude-model', messages: [{ role: 'user', content }] });
const weatherTool = { name: 'weather', description: 'Weather by city.', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const urlImage = { type: 'image', source: { type: 'url', url: metadataImage } };

describe("the issue's reproduction: count_tokens for a key with capabilities: []", () => {
  const cases: Array<[string, Body, string]> = [
    ['tools', { ...question(), tools: [weatherTool] }, "This API key may not use tools (asked for by 'tools[0]')."],
    ['an image URL of the metadata address', question([urlImage, { type: 'text', text: 'What is it?' }]), "This API key may not use vision (asked for by 'messages[0].content[0]')."],
    ['a thinking budget', { ...question(), thinking: { type: 'enabled', budget_tokens: 1024 } }, "This API key may not use reasoning (asked for by 'thinking')."],
  ];
  for (const [name, body, message] of cases) {
    test(`${name}: refused as /v1/messages refuses it, nothing sent upstream`, async () => {
      assert.deepEqual(await generate(keys.none, body), { status: 403, message });
      assert.deepEqual(await countMessages(keys.none, body), { status: 403, message });
    });
  }

  test('a thinking budget above the key’s max_output_tokens is refused too', async () => {
    const body = { ...question(), thinking: { type: 'enabled', budget_tokens: 4096 } };
    const message = "'thinking.budget_tokens' is 4096; this API key may ask for at most 2000.";
    assert.deepEqual(await generate(keys.capped, body), { status: 403, message });
    assert.deepEqual(await countMessages(keys.capped, body), { status: 403, message });
  });

  test("Gemini's countTokens: tools, a fileData URL and a thinking budget in a generateContentRequest", async () => {
    const contents = [{ role: 'user', parts: [{ text: 'How many tokens?' }] }];
    const refused: Array<[Body, string]> = [
      [{ contents, tools: [{ functionDeclarations: [{ name: 'weather' }] }] }, 'tools[0].functionDeclarations'],
      [{ contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'image/png', fileUri: metadataImage } }] }] }, 'contents[0].parts[0].fileData'],
      [{ contents, generationConfig: { thinkingConfig: { thinkingBudget: 1024 } } }, 'generationConfig.thinkingConfig.thinkingBudget'],
    ];
    for (const [request, param] of refused) {
      const generated = await generateGemini(keys.none, request);
      assert.equal(generated.status, 403, JSON.stringify(request));
      assert.ok(generated.message!.includes(`'${param}'`), generated.message);
      assert.deepEqual(await countGemini(keys.none, { generateContentRequest: { model: 'models/gemini-model', ...request } }), {
        status: 403,
        message: generated.message!.replace(`'${param}'`, `'generateContentRequest.${param}'`),
      });
    }
  });
});

/** Anthropic bodies with any mix of the fields the permissions govern. */
const messagesBodies: fc.Arbitrary<Body> = fc
  .record({
    tools: fc.boolean(),
    toolChoice: fc.boolean(),
    image: fc.constantFrom(undefined, urlImage, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngData } }),
    thinking: fc.option(fc.integer({ min: 1024, max: 2500 }), { nil: undefined }),
    maxTokens: fc.integer({ min: 1500, max: 2600 }),
  })
  .map(({ tools, toolChoice, image, thinking, maxTokens }) => ({
    ...question(image ? [image, { type: 'text', text: 'And this?' }] : 'Hi'),
    max_tokens: maxTokens,
    ...(tools && { tools: [weatherTool] }),
    ...(toolChoice && { tool_choice: { type: 'any' } }),
    ...(thinking !== undefined && { thinking: { type: 'enabled', budget_tokens: thinking } }),
  }));

/** Gemini requests likewise, counted as a whole generateContentRequest. */
const geminiRequests: fc.Arbitrary<Body> = fc
  .record({
    tools: fc.boolean(),
    image: fc.constantFrom(undefined, { fileData: { mimeType: 'image/png', fileUri: metadataImage } }, { inlineData: { mimeType: 'image/png', data: pngData } }),
    thinking: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
    maxOutputTokens: fc.option(fc.integer({ min: 100, max: 3000 }), { nil: undefined }),
    snakeCase: fc.boolean(),
  })
  .map(({ tools, image, thinking, maxOutputTokens, snakeCase }) => {
    const generationConfig = { ...(maxOutputTokens !== undefined && { maxOutputTokens }), ...(thinking !== undefined && { thinkingConfig: { thinkingBudget: thinking } }) };
    return {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }, ...(image ? [image] : [])] }],
      ...(tools && { tools: [{ functionDeclarations: [{ name: 'weather' }] }] }),
      ...(Object.keys(generationConfig).length > 0 && { [snakeCase ? 'generation_config' : 'generationConfig']: generationConfig }),
    };
  });

const anyKey = fc.constantFrom<keyof typeof keys>('wide', 'none', 'vision', 'capped');

describe('property: counting refuses exactly what generating refuses, for access reasons', () => {
  test('Anthropic: /v1/messages/count_tokens and /v1/messages', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(messagesBodies, anyKey, async (body, keyName) => {
        const generated = await generate(keys[keyName], body);
        const counted = await countMessages(keys[keyName], body);
        const label = `${keyName} ${JSON.stringify(body)}: generate ${generated.status} ${generated.message}, count ${counted.status} ${counted.message}`;
        assert.equal(counted.status === 403, generated.status === 403, label);
        if (generated.status === 403) assert.equal(counted.message, generated.message, label);
        assert.ok(generated.status === 403 || generated.status === 200, label);
      }),
      { seed: 8, numRuns: 60, endOnFailure: true },
    );
  });

  test("Gemini: :countTokens and :generateContent", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(geminiRequests, anyKey, async (request, keyName) => {
        const generated = await generateGemini(keys[keyName], request);
        const onlyContents = Object.keys(request).length === 1;
        const counted = await countGemini(keys[keyName], onlyContents ? request : { generateContentRequest: request });
        const label = `${keyName} ${JSON.stringify(request)}: generate ${generated.status} ${generated.message}, count ${counted.status} ${counted.message}`;
        assert.equal(counted.status === 403, generated.status === 403, label);
        // The count names the field inside its generateContentRequest.
        if (generated.status === 403) assert.equal(counted.message?.replace("'generateContentRequest.", "'"), generated.message, label);
        assert.ok(generated.status === 403 || generated.status === 200, label);
      }),
      { seed: 8, numRuns: 60, endOnFailure: true },
    );
  });
});
