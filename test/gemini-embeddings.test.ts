// Gemini's embeddings (`:embedContent`, `:batchEmbedContents`) through the gateway, driven by the official
// `@google/genai` SDK and plain fetch (and OpenAI's `/v1/embeddings` through the openai SDK, the AI SDK and
// LangChain), on each embedding upstream the gateway translates to: the Gemini
// API (batchEmbedContents, on the scripted fake upstream), Vertex AI (predict, on the strict fake Vertex
// with its token endpoint) and Bedrock (Titan Text Embeddings V2 InvokeModel, on the fake Bedrock that
// verifies SigV4). Checks the vectors against what each fake computed, what each upstream received, the
// contract, and the usage ledger.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { ApiError, GoogleGenAI } from '@google/genai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embedMany } from 'ai';
import OpenAI from 'openai';
import { createClient, unwrap } from '../client/index.js';
import { configSchema } from '../server/config/config-schema.js';
import { countTextTokens } from '../server/core/token-counter.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { fakeVector } from './helpers/fake-embedding-vectors.js';
import { startFakeBedrock, type FakeBedrock } from './helpers/fake-bedrock.js';
import { titanEmbedAnswer } from './helpers/fake-bedrock-titan.js';
import { geminiBatchEmbedReply } from './helpers/fake-gemini-embeddings.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startFakeVertex, type FakeVertex } from './helpers/fake-vertex.js';
import { vertexPredictReply, wordCount } from './helpers/fake-vertex-predict.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const project = 'acme-ai';
const location = 'europe-west4';
const aws = { region: 'eu-west-3', accessKeyId: 'AKIAFAKEBEDROCK00002', secretAccessKey: 'fake/secret+key/embeddings0123456789abcd' };
const texts = ['The cat sat on the mat.', 'Invoices go out on the first of the month.', 'A kitten sleeps on a rug.'];

let gemini: FakeUpstream;
let vertex: FakeVertex;
let bedrock: FakeBedrock;
let gateway: TestGateway;
let ai: GoogleGenAI;
let dir: string;

before(async () => {
  gemini = await startFakeUpstream();
  vertex = await startFakeVertex({ project, location });
  bedrock = await startFakeBedrock({ ...aws, answer: (call) => titanEmbedAnswer(call.body) });
  dir = await mkdtemp(join(tmpdir(), 'gemini-embeddings-'));
  const config = configSchema.parse({
    providers: [
      { id: 'google', type: 'gemini', base_url: gemini.origin, api_key: 'AIzaFakeGeminiKeyForEmbeddings0123456' },
      { id: 'vertex', type: 'vertex', base_url: vertex.origin, location, credentials_file: await vertex.writeKeyFile(dir) },
      { id: 'aws', type: 'bedrock', base_url: bedrock.origin, region: aws.region, aws_access_key_id: aws.accessKeyId, aws_secret_access_key: aws.secretAccessKey },
    ],
    models: [
      { id: 'gemini-embed', provider: 'google', upstream_model: 'gemini-embedding-001', capabilities: ['embeddings'] },
      { id: 'vertex-embed', provider: 'vertex', upstream_model: 'text-embedding-005', capabilities: ['embeddings'] },
      { id: 'vertex-gemini-embed', provider: 'vertex', upstream_model: 'gemini-embedding-001', capabilities: ['embeddings'] },
      { id: 'aws/titan-embed', provider: 'aws', upstream_model: 'amazon.titan-embed-text-v2:0', capabilities: ['embeddings'] },
      { id: 'chat-only', provider: 'google', upstream_model: 'gemini-2.5-flash' },
    ],
    routing: { max_attempts: 1 },
  });
  gateway = await startGateway({ config });
  ai = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin } });
});
after(async () => {
  await gateway.close();
  await Promise.all([gemini.close(), vertex.close(), bedrock.close()]);
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${gateway.origin}${path}`, { method: 'POST', headers: { 'x-goog-api-key': gateway.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Each upstream, how a test makes it answer, what it received, and how it counts tokens. */
const upstreams = [
  {
    model: 'gemini-embed',
    provider: 'google',
    answer: () => gemini.enqueue(geminiBatchEmbedReply()),
    sentTexts: (calls: number) => gemini.requests.slice(-calls).flatMap((request) => (request.json as Body).requests.map((item: Body) => item.content.parts[0].text)),
    // The Gemini API reports no usage: the gateway counts (o200k_base) and marks it estimated.
    tokens: (sent: string[]) => ({ input: sent.reduce((sum, text) => sum + countTextTokens(text), 0), estimated: true }),
  },
  {
    model: 'vertex-embed',
    provider: 'vertex',
    answer: () => vertex.upstream.enqueue(vertexPredictReply()),
    sentTexts: (calls: number) => vertex.upstream.requests.slice(-calls).flatMap((request) => (request.json as Body).instances.map((instance: Body) => instance.content)),
    tokens: (sent: string[]) => ({ input: sent.reduce((sum, text) => sum + wordCount(text), 0), estimated: false }),
  },
  {
    model: 'aws/titan-embed',
    provider: 'aws',
    answer: () => undefined,
    sentTexts: (calls: number) => bedrock.calls.slice(-calls).map((call) => call.body.inputText as string),
    tokens: (sent: string[]) => ({ input: sent.reduce((sum, text) => sum + wordCount(text), 0), estimated: false }),
  },
];

for (const upstream of upstreams) {
  describe(`Gemini embeddings on the ${upstream.provider} upstream (${upstream.model})`, () => {
    test('@google/genai models.embedContent with several contents: one vector per content, in order, and a ledger row', async () => {
      upstream.answer();
      // Titan takes one text per call: the gateway makes one InvokeModel call per content.
      const calls = upstream.provider === 'aws' ? texts.length : 1;
      const response = await ai.models.embedContent({ model: upstream.model, contents: texts, config: { outputDimensionality: 256 } });
      assert.deepEqual(response.embeddings?.map((embedding) => embedding.values), texts.map((text) => fakeVector(text, 256)));
      assert.deepEqual(upstream.sentTexts(calls), texts);
      const headers = response.sdkHttpResponse!.headers!;
      assert.equal(headers['x-gateway-model'], upstream.model);
      assert.equal(headers['x-gateway-provider'], upstream.provider);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, headers['x-request-id']!);
      const expected = upstream.tokens(texts);
      assert.equal(row.protocol, 'gemini');
      // The SDK picks the API version (v1beta up to @google/genai 2, v1 from 3); the gateway serves both.
      assert.match(row.endpoint, /^POST \/v1(beta)?\/models\/\{model\}:batchEmbedContents$/);
      assert.equal(row.model, upstream.model);
      assert.equal(row.status, 200);
      assert.equal(row.input_tokens, expected.input);
      assert.equal(row.output_tokens, 0);
      assert.equal(row.estimated, expected.estimated);
    });

    test(':embedContent (v1, snake_case) embeds one content, its text parts joined', async () => {
      upstream.answer();
      const response = await post(`/v1/models/${upstream.model}:embedContent`, {
        content: { parts: [{ text: 'first line' }, { text: 'second line' }] },
        task_type: 'SEMANTIC_SIMILARITY',
        output_dimensionality: 512,
      });
      assert.equal(response.status, 200);
      const body = await response.json();
      assertMatchesSchema('GeminiEmbedContentResponse', body);
      assert.deepEqual(body, { embedding: { values: fakeVector('first line\nsecond line', 512) } });
      assert.deepEqual(upstream.sentTexts(1), ['first line\nsecond line']);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
      assert.equal(row.endpoint, 'POST /v1/models/{model}:embedContent');
      assert.equal(row.input_tokens, upstream.tokens(['first line\nsecond line']).input);
    });

    test('OpenAI-protocol clients on this upstream: the openai SDK (floats and its default base64), the AI SDK and LangChain', async () => {
      const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      const pair = texts.slice(0, 2);
      upstream.answer();
      const floats = await openai.embeddings.create({ model: upstream.model, input: pair, dimensions: 256, encoding_format: 'float' }).withResponse();
      assert.deepEqual(floats.data.data.map((item) => item.embedding), pair.map((text) => fakeVector(text, 256)));
      assert.deepEqual(upstream.sentTexts(upstream.provider === 'aws' ? pair.length : 1), pair);
      assert.equal(floats.data.usage.prompt_tokens, upstream.tokens(pair).input);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, floats.response.headers.get('x-request-id')!);
      assert.equal(row.protocol, 'openai-embeddings');
      assert.equal(row.input_tokens, upstream.tokens(pair).input);

      upstream.answer();
      // The SDK asks for base64 and decodes the little-endian float32 the gateway encoded.
      const decoded = await openai.embeddings.create({ model: upstream.model, input: pair, dimensions: 256 });
      assert.deepEqual(decoded.data.map((item) => item.embedding), pair.map((text) => fakeVector(text, 256).map(Math.fround)));

      upstream.answer();
      const aiSdk = createOpenAI({ baseURL: `${gateway.origin}/v1`, apiKey: gateway.apiKey }).embedding(upstream.model);
      const { embeddings } = await embedMany({ model: aiSdk, values: pair, maxRetries: 0, providerOptions: { openai: { dimensions: 256 } } });
      assert.deepEqual(embeddings, pair.map((text) => fakeVector(text, 256)));

      upstream.answer();
      const langchain = new OpenAIEmbeddings({ model: upstream.model, dimensions: 256, apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, maxRetries: 0 });
      assert.deepEqual(await langchain.embedDocuments(pair), pair.map((text) => fakeVector(text, 256).map(Math.fround)));
    });
  });
}

describe('what each upstream is sent', () => {
  test('Gemini: every request names the model, with the task type, title and vector length', async () => {
    gemini.enqueue(geminiBatchEmbedReply());
    const response = await ai.models.embedContent({
      model: 'gemini-embed',
      contents: ['doc one', 'doc two'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Handbook', outputDimensionality: 8 },
    });
    assert.equal(response.embeddings?.length, 2);
    const sent = gemini.requests.at(-1)!;
    assert.equal(sent.url, '/v1beta/models/gemini-embedding-001:batchEmbedContents');
    assert.equal(sent.headers['x-goog-api-key'], 'AIzaFakeGeminiKeyForEmbeddings0123456');
    assert.deepEqual((sent.json as Body).requests[1], {
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: 'doc two' }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      title: 'Handbook',
      outputDimensionality: 8,
    });
  });

  test('Vertex: instances with task_type and title, parameters.outputDimensionality, a bearer token', async () => {
    vertex.upstream.enqueue(vertexPredictReply());
    await ai.models.embedContent({ model: 'vertex-embed', contents: ['doc one', 'doc two'], config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Handbook', outputDimensionality: 8 } });
    const sent = vertex.upstream.requests.at(-1)!;
    assert.equal(sent.url, `/v1/projects/${project}/locations/${location}/publishers/google/models/text-embedding-005:predict`);
    assert.deepEqual(sent.json, {
      instances: [
        { content: 'doc one', task_type: 'RETRIEVAL_DOCUMENT', title: 'Handbook' },
        { content: 'doc two', task_type: 'RETRIEVAL_DOCUMENT', title: 'Handbook' },
      ],
      parameters: { outputDimensionality: 8 },
    });
    assert.equal(vertex.unauthenticatedCalls, 0);
  });

  test('Vertex gemini-embedding-001 takes one instance a request: one call per content', async () => {
    vertex.upstream.enqueue(vertexPredictReply(), vertexPredictReply());
    const before = vertex.upstream.requests.length;
    const response = await ai.models.embedContent({ model: 'vertex-gemini-embed', contents: ['alpha', 'beta'] });
    assert.deepEqual(response.embeddings?.map((embedding) => embedding.values), [fakeVector('alpha', 768), fakeVector('beta', 768)]);
    assert.equal(vertex.upstream.requests.length - before, 2);
  });

  test('Bedrock: a signed InvokeModel per content, Titan V2 body, model ID escaped in the path', async () => {
    const before = bedrock.calls.length;
    await ai.models.embedContent({ model: 'aws/titan-embed', contents: ['alpha', 'beta'], config: { outputDimensionality: 512, taskType: 'RETRIEVAL_QUERY' } });
    const calls = bedrock.calls.slice(before);
    assert.deepEqual(calls.map((call) => [call.operation, call.modelId]), [['invoke', 'amazon.titan-embed-text-v2:0'], ['invoke', 'amazon.titan-embed-text-v2:0']]);
    assert.deepEqual(calls.map((call) => call.body).sort((a, b) => String(a.inputText).localeCompare(String(b.inputText))), [
      { inputText: 'alpha', dimensions: 512, normalize: true },
      { inputText: 'beta', dimensions: 512, normalize: true },
    ]);
  });
});

describe('refusals, in Gemini\'s error shape', () => {
  const refusal = async (response: Response, status: number, match: RegExp) => {
    assert.equal(response.status, status);
    const body = await response.json();
    assertMatchesSchema('GeminiError', body);
    assert.match(body.error.message, match);
    return body;
  };

  test('a model without the embeddings capability', async () => {
    const body = await refusal(await post('/v1beta/models/chat-only:embedContent', { content: { parts: [{ text: 'x' }] } }), 400, /cannot embed/);
    assert.equal(body.error.status, 'INVALID_ARGUMENT');
  });

  test('a batch request naming another model, and a batch mixing vector lengths', async () => {
    const text = (value: string) => ({ content: { parts: [{ text: value }] } });
    await refusal(await post('/v1beta/models/gemini-embed:batchEmbedContents', { requests: [{ ...text('a'), model: 'models/other' }] }), 400, /not the model of the path/);
    await refusal(
      await post('/v1beta/models/gemini-embed:batchEmbedContents', { requests: [{ ...text('a'), outputDimensionality: 4 }, { ...text('b'), outputDimensionality: 8 }] }),
      400,
      /requests\[1\]\.outputDimensionality/,
    );
  });

  test('an image part, and an upstream refusal passed on (Titan takes no 100 dimensions)', async () => {
    await refusal(await post('/v1beta/models/gemini-embed:embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }), 400, /only text parts/);
    await refusal(await post('/v1beta/models/aws/titan-embed:embedContent', { content: { parts: [{ text: 'x' }] }, outputDimensionality: 100 }), 400, /dimensions/);
  });

  test('the SDK throws ApiError for an unknown model', async () => {
    await assert.rejects(ai.models.embedContent({ model: 'no-such-model', contents: ['x'] }), (error: ApiError) => error.status === 404);
  });
});

test('a key whose permissions leave out embeddings is refused with 403 PERMISSION_DENIED, and no upstream is called', async () => {
  const admin = createClient({ baseUrl: gateway.origin, apiKey: gateway.adminKey });
  const account = unwrap(await admin.POST('/admin/v1/accounts', { body: { name: 'no-embeddings', permissions: { capabilities: ['chat', 'streaming'] } } }));
  const { key } = unwrap(await admin.POST('/admin/v1/accounts/{account_id}/keys', { params: { path: { account_id: account.id } }, body: { name: 'k' } }));
  const before = gemini.requests.length;
  const denied = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.origin } });
  await assert.rejects(denied.models.embedContent({ model: 'gemini-embed', contents: ['x'] }), (error: ApiError) => error.status === 403 && /embeddings/.test(error.message));
  assert.equal(gemini.requests.length, before);
});

test('the resource-name path (model ID with a slash, without models/) serves batchEmbedContents', async () => {
  const response = await post('/v1beta/aws/titan-embed:batchEmbedContents', { requests: [{ content: { parts: [{ text: 'hello' }] } }] });
  assert.equal(response.status, 200);
  const body = await response.json();
  assertMatchesSchema('GeminiBatchEmbedContentsResponse', body);
  assert.deepEqual(body, { embeddings: [{ values: fakeVector('hello', 1024) }] });
});

test('the Gemini model list shows the embedding actions', async () => {
  const response = await fetch(`${gateway.origin}/v1beta/models/gemini-embed`, { headers: { 'x-goog-api-key': gateway.apiKey } });
  const model = await response.json();
  assert.deepEqual(model.supportedGenerationMethods, ['embedContent', 'batchEmbedContents']);
});
