// Embeddings on the built-in offline model through a real gateway: the openai SDK (floats, and base64,
// which it asks for and decodes by default), the AI SDK's embed and embedMany, LangChain's
// OpenAIEmbeddings; every input spelling, `dimensions`, the usage ledger, permissions and the 400s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { cosineSimilarity, embed, embedMany } from 'ai';
import OpenAI from 'openai';
import { configSchema, type GatewayConfig } from '../server/config/config-schema.js';
import { countTextTokens } from '../server/core/token-counter.js';
import { adminApi } from './helpers/admin-api.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { publishedValidator } from './helpers/openai-spec/published-validator.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';

const inputPerMtok = 0.02;
const config: GatewayConfig = configSchema.parse({
  ...testConfig,
  models: testConfig.models.map((model) => (model.id === 'builtin/embed' ? { ...model, pricing: { input_per_mtok: inputPerMtok, output_per_mtok: 0 } } : model)),
});

let gateway: TestGateway;
let openai: OpenAI;
before(async () => {
  gateway = await startGateway({ config });
  openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});
after(() => gateway.close());

const norm = (vector: readonly number[]) => Math.hypot(...vector);

/** A raw call, so the JSON is the gateway's own (the SDK decodes base64) and the headers can be read. */
async function postEmbeddings(body: unknown, key = gateway.apiKey): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(`${gateway.origin}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

describe('openai SDK', () => {
  test('float vectors: 256 long, unit length, usage counted, model echoed', async () => {
    const answer = await openai.embeddings.create({ model: 'builtin/embed', input: 'the cat sat on the mat', encoding_format: 'float' });
    assertMatchesSchema('CreateEmbeddingResponse', answer);
    // OpenAI's published spec knows float answers only (its Embedding is a number array), so the gateway's
    // watch on OpenAI operations leaves embeddings out; a float answer is checked against it here.
    assert.deepEqual(publishedValidator().violations('CreateEmbeddingResponse', answer), []);
    assert.equal(answer.object, 'list');
    assert.equal(answer.model, 'builtin/embed');
    assert.equal(answer.data.length, 1);
    assert.equal(answer.data[0]!.object, 'embedding');
    assert.equal(answer.data[0]!.index, 0);
    assert.equal(answer.data[0]!.embedding.length, 256);
    assert.ok(Math.abs(norm(answer.data[0]!.embedding) - 1) < 1e-9);
    assert.equal(answer.usage.prompt_tokens, 6);
    assert.equal(answer.usage.total_tokens, 6);
  });

  test('base64 by default: the SDK decodes the float32 values, equal to the float answer at float32 precision', async () => {
    const texts = ['the cat sat on the mat', 'a cat sitting on a mat', 'quarterly revenue grew'];
    const floats = await openai.embeddings.create({ model: 'builtin/embed', input: texts, encoding_format: 'float' });
    const decoded = await openai.embeddings.create({ model: 'builtin/embed', input: texts });
    assert.equal(decoded.data.length, 3);
    decoded.data.forEach((item, index) => {
      assert.equal(item.index, index);
      assert.equal(item.embedding.length, 256);
      item.embedding.forEach((value, at) => assert.equal(value, Math.fround(floats.data[index]!.embedding[at]!)));
    });
    const [cat, sitting, revenue] = decoded.data.map((item) => item.embedding);
    assert.ok(cosineSimilarity(cat!, sitting!) > cosineSimilarity(cat!, revenue!) + 0.2, 'texts sharing words and word pieces are closer');
  });

  test('base64 on the wire is little-endian float32, as OpenAI sends it', async () => {
    const floats = await postEmbeddings({ model: 'builtin/embed', input: 'little endian', encoding_format: 'float' });
    const base64 = await postEmbeddings({ model: 'builtin/embed', input: 'little endian', encoding_format: 'base64' });
    assert.equal(base64.status, 200);
    assertMatchesSchema('CreateEmbeddingResponse', base64.json);
    const bytes = Buffer.from(base64.json.data[0].embedding as string, 'base64');
    assert.equal(bytes.length, 256 * 4);
    const values = Array.from({ length: 256 }, (_, index) => bytes.readFloatLE(index * 4));
    assert.deepEqual(values, (floats.json.data[0].embedding as number[]).map(Math.fround));
  });

  test('token arrays: one array is one input, an array of arrays several; IDs are embedded as words', async () => {
    const one = await openai.embeddings.create({ model: 'builtin/embed', input: [1212, 318, 257], encoding_format: 'float' });
    assert.equal(one.data.length, 1);
    assert.equal(one.usage.prompt_tokens, 3);
    const several = await openai.embeddings.create({ model: 'builtin/embed', input: [[1212, 318, 257], [42]], encoding_format: 'float' });
    assert.equal(several.data.length, 2);
    assert.equal(several.usage.prompt_tokens, 4);
    assert.deepEqual(several.data[0]!.embedding, one.data[0]!.embedding);
    const asWords = await openai.embeddings.create({ model: 'builtin/embed', input: '1212 318 257', encoding_format: 'float' });
    assert.deepEqual(asWords.data[0]!.embedding, one.data[0]!.embedding);
  });

  test('dimensions: the vector cut and normalised again; more than the model makes is a 400', async () => {
    const full = await openai.embeddings.create({ model: 'builtin/embed', input: 'shorter vectors', encoding_format: 'float' });
    const short = await openai.embeddings.create({ model: 'builtin/embed', input: 'shorter vectors', encoding_format: 'float', dimensions: 64 });
    assert.equal(short.data[0]!.embedding.length, 64);
    assert.ok(Math.abs(norm(short.data[0]!.embedding) - 1) < 1e-9);
    const scale = norm(full.data[0]!.embedding.slice(0, 64));
    short.data[0]!.embedding.forEach((value, index) => assert.ok(Math.abs(value - full.data[0]!.embedding[index]! / scale) < 1e-12));
    await assert.rejects(openai.embeddings.create({ model: 'builtin/embed', input: 'x', dimensions: 1024 }), (error: any) => {
      assert.equal(error.status, 400);
      assert.equal(error.param, 'dimensions');
      assert.match(error.message, /at most 256 dimensions/);
      return true;
    });
  });

  test('route headers and one ledger row with the model, tokens and cost at input_per_mtok', async () => {
    const { data, response } = await openai.embeddings.create({ model: 'builtin/embed', input: ['one two three', 'four five'] }).withResponse();
    assert.equal(response.headers.get('x-gateway-model'), 'builtin/embed');
    assert.equal(response.headers.get('x-gateway-provider'), 'builtin');
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.model, 'builtin/embed');
    assert.equal(row.protocol, 'openai-embeddings');
    assert.equal(row.endpoint, 'POST /v1/embeddings');
    assert.equal(row.status, 200);
    assert.equal(row.input_tokens, data.usage.prompt_tokens);
    assert.equal(row.output_tokens, 0);
    assert.ok(Math.abs(row.cost_usd - (data.usage.prompt_tokens * inputPerMtok) / 1e6) < 1e-12, `cost ${row.cost_usd}`);
    assert.equal(row.completed, true);
  });

  test('the model list shows the capability', async () => {
    const model = await openai.models.retrieve('builtin/embed');
    assert.deepEqual((model as unknown as { capabilities: string[] }).capabilities, ['embeddings']);
  });
});

describe('refusals, in OpenAI error shape', () => {
  test('a chat model is a 400 naming the models that can embed', async () => {
    const { status, json } = await postEmbeddings({ model: 'builtin/echo', input: 'hello' });
    assert.equal(status, 400);
    assert.equal(json.error.param, 'model');
    assert.equal(json.error.code, 'unsupported_model');
    assert.match(json.error.message, /The model 'builtin\/echo' cannot embed text\. Models that can: builtin\/embed\./);
  });

  test('an embedding model is no chat model', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'builtin/embed', messages: [{ role: 'user', content: 'hi' }] }), (error: any) => {
      assert.equal(error.status, 400);
      assert.match(error.message, /not a chat model/);
      return true;
    });
  });

  test('an unknown model is a 404', async () => {
    const { status, json } = await postEmbeddings({ model: 'no/such-model', input: 'hello' });
    assert.equal(status, 404);
    assert.equal(json.error.code, 'model_not_found');
  });

  for (const [what, input] of [
    ['an empty string', ''],
    ['an empty string among others', ['fine', '']],
    ['an empty array', []],
    ['an empty token array', [[1, 2], []]],
    ['2049 inputs', Array.from({ length: 2049 }, () => 'x')],
    ['a mix of strings and tokens', ['text', 42]],
  ] as const) {
    test(`${what} is a 400 naming input`, async () => {
      const { status, json } = await postEmbeddings({ model: 'builtin/embed', input });
      assert.equal(status, 400, JSON.stringify(json));
      assertMatchesSchema('OpenAIError', json);
      assert.equal(json.error.type, 'invalid_request_error');
      assert.match(json.error.param, /^input/);
    });
  }

  test('2048 inputs are fine', async () => {
    const { status, json } = await postEmbeddings({ model: 'builtin/embed', input: Array.from({ length: 2048 }, (_, index) => `text ${index}`) });
    assert.equal(status, 200);
    assert.equal(json.data.length, 2048);
    assert.equal(json.data[2047].index, 2047);
  });

  test('encoding_format other than float or base64 is a 400', async () => {
    const { status, json } = await postEmbeddings({ model: 'builtin/embed', input: 'x', encoding_format: 'int8' });
    assert.equal(status, 400);
    assert.equal(json.error.param, 'encoding_format');
  });
});

describe('permissions', () => {
  test('a key whose capabilities leave out embeddings gets 403 and does not see the model; one with embeddings does', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'embedding-permissions' });
    const { key: toolsOnly } = await admin.createKey(account.id, { name: 'tools', permissions: { capabilities: ['tools'] } });
    const refused = await postEmbeddings({ model: 'builtin/embed', input: 'hello' }, toolsOnly);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'capability_not_permitted');
    const hidden = new OpenAI({ apiKey: toolsOnly, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const hiddenIds = (await hidden.models.list()).data.map((model) => model.id);
    assert.ok(!hiddenIds.includes('builtin/embed') && hiddenIds.includes('builtin/echo'), hiddenIds.join(', '));

    const { key: embedder } = await admin.createKey(account.id, { name: 'embed', permissions: { capabilities: ['embeddings'] } });
    const allowed = new OpenAI({ apiKey: embedder, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    assert.ok((await allowed.models.list()).data.some((model) => model.id === 'builtin/embed'));
    const answer = await allowed.embeddings.create({ model: 'builtin/embed', input: 'allowed' });
    assert.equal(answer.data.length, 1);
  });
});

describe('limits', () => {
  test('tokens_per_minute counts embedding input, token IDs included, and refuses with 429', async () => {
    await awayFromMinuteEdge();
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'embedding-limits', limits: { tokens_per_minute: 60 } });
    const { key } = await admin.createKey(account.id, { name: 'k' });
    // 64 token IDs are 64 tokens before any upstream counts them: refused at admission, not after.
    const tooMany = await postEmbeddings({ model: 'builtin/embed', input: Array.from({ length: 64 }, (_, index) => index) }, key);
    assert.equal(tooMany.status, 429, JSON.stringify(tooMany.json));
    const text = 'a few words to embed, well within the limit';
    const first = await postEmbeddings({ model: 'builtin/embed', input: text }, key);
    assert.equal(first.status, 200);
    const used = first.json.usage.prompt_tokens as number;
    let refused = 0;
    for (let call = 0; call < Math.ceil(60 / used) + 1; call++) if ((await postEmbeddings({ model: 'builtin/embed', input: text }, key)).status === 429) refused++;
    assert.ok(refused > 0, 'the minute runs out of tokens');
  });
});

describe('AI SDK (@ai-sdk/openai)', () => {
  const model = () => createOpenAI({ baseURL: `${gateway.origin}/v1`, apiKey: gateway.apiKey }).embedding('builtin/embed');

  test('embed: one vector and its usage', async () => {
    const { embedding, usage } = await embed({ model: model(), value: 'sunny day at the beach', maxRetries: 0 });
    assert.equal(embedding.length, 256);
    assert.equal(usage.tokens, countTextTokens('sunny day at the beach'), 'o200k_base tokens, as the built-in chat model counts');
  });

  test('embedMany: one vector per value, in order, similar texts closest', async () => {
    const values = ['the cat sat on the mat', 'a cat sitting on a mat', 'quarterly revenue grew'];
    const { embeddings, usage } = await embedMany({ model: model(), values, maxRetries: 0 });
    assert.equal(embeddings.length, 3);
    assert.ok(cosineSimilarity(embeddings[0]!, embeddings[1]!) > cosineSimilarity(embeddings[0]!, embeddings[2]!) + 0.2);
    assert.ok(usage.tokens > 0);
  });
});

describe('LangChain OpenAIEmbeddings', () => {
  const embeddings = () =>
    new OpenAIEmbeddings({ model: 'builtin/embed', apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, maxRetries: 0 });

  test('embedQuery and embedDocuments', async () => {
    const query = await embeddings().embedQuery('where did the cat sit?');
    assert.equal(query.length, 256);
    const documents = await embeddings().embedDocuments(['the cat sat on the mat', 'quarterly revenue grew']);
    assert.equal(documents.length, 2);
    assert.ok(cosineSimilarity(query, documents[0]!) > cosineSimilarity(query, documents[1]!));
  });

  test('dimensions are passed on', async () => {
    const short = new OpenAIEmbeddings({ model: 'builtin/embed', dimensions: 32, apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, maxRetries: 0 });
    assert.equal((await short.embedQuery('short')).length, 32);
  });
});
