// Gemini's embeddings (`@google/genai` models.embedContent, `:embedContent`) on the built-in offline model
// (builtin/embed, in the default config) and, translated, on an OpenAI upstream (`POST /v1/embeddings` on
// the fake upstream): one vector per content, what OpenAI was sent, and a ledger row with the input tokens.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GoogleGenAI } from '@google/genai';
import { configSchema } from '../server/config/config-schema.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { embeddingsReply, fakeEmbedding, fakeTokenCount } from './helpers/fake-openai-embeddings.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';
import { cosineSimilarity } from 'ai';

const texts = ['The cat sat on the mat.', 'A kitten sleeps on a rug.', 'Invoices go out monthly.'];

let openai: FakeUpstream;
let gateway: TestGateway;
let ai: GoogleGenAI;
before(async () => {
  openai = await startFakeUpstream();
  const config = configSchema.parse({
    ...testConfig,
    providers: [...testConfig.providers, { id: 'openai', type: 'openai', base_url: `${openai.origin}/v1`, api_key: 'sk-upstream-embeddings-0123456789' }],
    models: [...testConfig.models, { id: 'openai-embed', provider: 'openai', upstream_model: 'text-embedding-3-small', capabilities: ['embeddings'] }],
  });
  gateway = await startGateway({ config });
  ai = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin } });
});
after(async () => {
  await gateway.close();
  await openai.close();
});

describe('builtin/embed through the Gemini protocol', () => {
  test('@google/genai embedContent: one unit vector per content, related texts closer, a ledger row', async () => {
    const response = await ai.models.embedContent({ model: 'builtin/embed', contents: texts });
    const vectors = response.embeddings!.map((embedding) => embedding.values!);
    assert.equal(vectors.length, 3);
    for (const vector of vectors) assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-6);
    assert.ok(cosineSimilarity(vectors[0]!, vectors[1]!) > cosineSimilarity(vectors[0]!, vectors[2]!), 'the two sentences about cats are closer');
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.sdkHttpResponse!.headers!['x-request-id']!);
    assert.equal(row.model, 'builtin/embed');
    // The SDK picks the API version (v1beta up to @google/genai 2, v1 from 3); the gateway serves both.
    assert.match(row.endpoint, /^POST \/v1(beta)?\/models\/\{model\}:batchEmbedContents$/);
    assert.ok(row.input_tokens > 0);
  });

  test(':embedContent with outputDimensionality shortens the vector', async () => {
    const response = await fetch(`${gateway.origin}/v1beta/models/builtin/embed:embedContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gateway.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'hello' }] }, outputDimensionality: 64 }),
    });
    assert.equal(response.status, 200);
    const body = await response.json();
    assertMatchesSchema('GeminiEmbedContentResponse', body);
    assert.equal(body.embedding.values.length, 64);
  });
});

describe('an OpenAI upstream, translated', () => {
  test('@google/genai embedContent becomes one POST /v1/embeddings with the texts and dimensions', async () => {
    openai.enqueue(embeddingsReply());
    const response = await ai.models.embedContent({ model: 'openai-embed', contents: texts, config: { outputDimensionality: 16 } });
    assert.deepEqual(response.embeddings!.map((embedding) => embedding.values), texts.map((text) => fakeEmbedding(text, 16)));
    const sent = openai.requests.at(-1)!;
    assert.equal(sent.url, '/v1/embeddings');
    assert.deepEqual((sent.json as { input: unknown }).input, texts);
    assert.equal((sent.json as { dimensions: number }).dimensions, 16);
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.sdkHttpResponse!.headers!['x-request-id']!);
    assert.equal(row.input_tokens, texts.reduce((sum, text) => sum + fakeTokenCount(text), 0));
    assert.equal(row.estimated, false);
  });
});
