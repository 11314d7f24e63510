// Embeddings through OpenAI, OpenAI-compatible and Azure OpenAI upstreams (fakes written from the public API
// references: helpers/fake-openai-embeddings.ts, helpers/fake-azure-openai.ts), driven by the openai SDK,
// the AI SDK and LangChain: what the upstream received, what the client got, the ledger, upstream errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embedMany } from 'ai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeAzureOpenAI, type FakeAzureOpenAI } from './helpers/fake-azure-openai.js';
import { embeddingsReply, fakeEmbedding, fakeTokenCount } from './helpers/fake-openai-embeddings.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { startUpstreamGateway, upstreamKey, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';

const asFloat32 = (vector: number[]) => vector.map(Math.fround);

for (const type of ['openai', 'openai-compatible'] as const) {
  describe(`${type} upstream`, () => {
    let setup: UpstreamGateway;
    before(async () => {
      setup = await startUpstreamGateway(type, { model: { capabilities: ['embeddings'] }, config: { routing: { max_attempts: 1 } } });
    });
    after(() => setup.close());
    const lastRequest = () => setup.upstream.requests.at(-1)!;

    test('openai SDK, base64 by default: floats asked of the upstream, the SDK decodes what the gateway encoded', async () => {
      setup.upstream.enqueue(embeddingsReply());
      const { data: answer, response } = await setup.openai.embeddings.create({ model: 'test-model', input: ['first text', 'the second one'] }).withResponse();
      const sent = lastRequest();
      assert.equal(sent.url, '/v1/embeddings');
      assert.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
      assert.deepEqual(sent.json, { model: upstreamModel, input: ['first text', 'the second one'], encoding_format: 'float' });
      assert.equal(answer.model, 'test-model');
      assert.deepEqual(answer.data.map((item) => item.embedding), [asFloat32(fakeEmbedding('first text')), asFloat32(fakeEmbedding('the second one'))]);
      assert.deepEqual(answer.usage, { prompt_tokens: 5, total_tokens: 5 });
      assert.equal(response.headers.get('x-gateway-provider'), 'fake');
      const row = await ledgerRow(setup.gateway.origin, setup.gateway.apiKey, response.headers.get('x-request-id')!);
      assert.equal(row.model, 'test-model');
      assert.equal(row.protocol, 'openai-embeddings');
      assert.equal(row.input_tokens, 5);
    });

    test('floats with dimensions: passed on, the vectors come back as numbers', async () => {
      setup.upstream.enqueue(embeddingsReply());
      const answer = await setup.openai.embeddings.create({ model: 'test-model', input: 'short', dimensions: 4, encoding_format: 'float' });
      assert.deepEqual(lastRequest().json, { model: upstreamModel, input: ['short'], encoding_format: 'float', dimensions: 4 });
      assert.deepEqual(answer.data[0]!.embedding, fakeEmbedding('short', 4));
    });

    test('token arrays go as they are', async () => {
      setup.upstream.enqueue(embeddingsReply(), embeddingsReply());
      const several = await setup.openai.embeddings.create({ model: 'test-model', input: [[1212, 318], [257]], encoding_format: 'float' });
      assert.deepEqual((lastRequest().json as { input: unknown }).input, [[1212, 318], [257]]);
      assert.deepEqual(several.data[1]!.embedding, fakeEmbedding([257]));
      assert.equal(several.usage.prompt_tokens, 3);
      await setup.openai.embeddings.create({ model: 'test-model', input: [1212, 318, 257], encoding_format: 'float' });
      assert.deepEqual((lastRequest().json as { input: unknown }).input, [[1212, 318, 257]]);
    });

    test('a server that answers out of order and without usage: put in order by index, the tokens counted by the gateway', async () => {
      setup.upstream.enqueue({
        json: {
          object: 'list',
          data: [
            { object: 'embedding', index: 1, embedding: [0, 1] },
            { object: 'embedding', index: 0, embedding: [1, 0] },
          ],
          model: 'nomic-embed-text',
        },
      });
      const answer = await setup.openai.embeddings.create({ model: 'test-model', input: ['zero', 'one'], encoding_format: 'float' });
      assert.deepEqual(answer.data.map((item) => item.embedding), [[1, 0], [0, 1]]);
      assert.equal(answer.usage.prompt_tokens, 2);
    });

    test('an answer with fewer vectors than inputs is a 502 naming the provider', async () => {
      setup.upstream.enqueue({ json: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1] }], model: 'x', usage: { prompt_tokens: 1, total_tokens: 1 } } });
      await assert.rejects(setup.openai.embeddings.create({ model: 'test-model', input: ['a', 'b'] }), (error: any) => {
        assert.equal(error.status, 502);
        assert.match(error.message, /'fake' \(openai\) answered 1 embeddings for 2 inputs/);
        return true;
      });
    });

    test("an upstream's refusal reaches the client as for chat: status and the upstream's message", async () => {
      setup.upstream.enqueue({
        status: 400,
        json: { error: { message: "This model's maximum context length is 8192 tokens, however you requested 9000 tokens.", type: 'invalid_request_error', param: null, code: null } },
      });
      await assert.rejects(setup.openai.embeddings.create({ model: 'test-model', input: 'too long' }), (error: any) => {
        assert.equal(error.status, 400);
        assert.match(error.message, /maximum context length is 8192 tokens/);
        return true;
      });
    });

    test('AI SDK embedMany and LangChain embedDocuments', async () => {
      setup.upstream.enqueue(embeddingsReply(), embeddingsReply());
      const model = createOpenAI({ baseURL: `${setup.gateway.origin}/v1`, apiKey: setup.gateway.apiKey }).embedding('test-model');
      const { embeddings, usage } = await embedMany({ model, values: ['alpha beta', 'gamma'], maxRetries: 0 });
      // The AI SDK asks for floats, so the numbers are the upstream's own.
      assert.deepEqual((setup.upstream.requests.at(-1)!.json as { input: unknown }).input, ['alpha beta', 'gamma']);
      assert.deepEqual(embeddings, [fakeEmbedding('alpha beta'), fakeEmbedding('gamma')]);
      assert.equal(usage.tokens, fakeTokenCount('alpha beta') + fakeTokenCount('gamma'));
      const langchain = new OpenAIEmbeddings({ model: 'test-model', apiKey: setup.gateway.apiKey, configuration: { baseURL: `${setup.gateway.origin}/v1` }, maxRetries: 0 });
      const documents = await langchain.embedDocuments(['delta', 'epsilon zeta']);
      assert.deepEqual(documents, [asFloat32(fakeEmbedding('delta')), asFloat32(fakeEmbedding('epsilon zeta'))]);
    });
  });
}

describe('azure-openai upstream', () => {
  const azureKey = 'azure-key-embeddings-0123456789';
  let azure: FakeAzureOpenAI;
  let gateway: TestGateway;
  let openai: OpenAI;
  before(async () => {
    azure = await startFakeAzureOpenAI(azureKey, { 'embed-deployment': 'text-embedding-3-small' });
    const config = configSchema.parse({
      providers: [
        { id: 'azure-dated', type: 'azure-openai', base_url: azure.endpoint, api_key: azureKey, api_version: '2024-10-21' },
        { id: 'azure-v1', type: 'azure-openai', base_url: azure.endpoint, api_key: azureKey },
      ],
      models: [
        { id: 'dated-embed', provider: 'azure-dated', upstream_model: 'embed-deployment', capabilities: ['embeddings'] },
        { id: 'v1-embed', provider: 'azure-v1', upstream_model: 'embed-deployment', capabilities: ['embeddings'] },
        { id: 'missing-embed', provider: 'azure-dated', upstream_model: 'nobody-deployed-this', capabilities: ['embeddings'] },
      ],
      routing: { max_attempts: 1 },
    });
    gateway = await startGateway({ config });
    openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gateway?.close();
    await azure?.close();
  });

  test('dated API: the deployment in the path, the api-version, the key in api-key', async () => {
    const { data: answer, response } = await openai.embeddings.create({ model: 'dated-embed', input: ['hello azure'], dimensions: 6 }).withResponse();
    const sent = azure.requests.at(-1)!;
    assert.equal(sent.path, '/openai/deployments/embed-deployment/embeddings');
    assert.equal(sent.query.get('api-version'), '2024-10-21');
    assert.equal(sent.headers['api-key'], azureKey);
    assert.equal(sent.headers.authorization, undefined);
    assert.deepEqual(sent.json, { model: 'embed-deployment', input: ['hello azure'], encoding_format: 'float', dimensions: 6 });
    assert.deepEqual(answer.data[0]!.embedding, asFloat32(fakeEmbedding('hello azure', 6)));
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.input_tokens, 2);
    assert.equal(row.model, 'dated-embed');
  });

  test('v1 API: /openai/v1/embeddings with the deployment as model', async () => {
    const answer = await openai.embeddings.create({ model: 'v1-embed', input: 'hello v1', encoding_format: 'float' });
    const sent = azure.requests.at(-1)!;
    assert.equal(sent.path, '/openai/v1/embeddings');
    assert.equal(sent.query.get('api-version'), null);
    assert.equal((sent.json as { model: string }).model, 'embed-deployment');
    assert.deepEqual(answer.data[0]!.embedding, fakeEmbedding('hello v1'));
  });

  test("Azure's errors come through as for chat: a deployment that does not exist is the gateway's upstream failing", async () => {
    await assert.rejects(openai.embeddings.create({ model: 'missing-embed', input: 'x' }), (error: any) => {
      assert.equal(error.status, 502);
      assert.match(error.message, /deployment for this resource does not exist/);
      return true;
    });
  });

  test('LangChain through Azure', async () => {
    const langchain = new OpenAIEmbeddings({ model: 'dated-embed', apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, maxRetries: 0 });
    assert.deepEqual(await langchain.embedQuery('query text'), asFloat32(fakeEmbedding('query text')));
  });
});
