// GET /v1/models and /v1/models/{id} are called at the same path by the OpenAI, Anthropic and Gemini
// (apiVersion v1) SDKs; each must get its own shape, its own paging and its own error shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { loadPriceCatalog, withCatalog } from '../server/config/price-catalog/price-catalog.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const modelIds = ['builtin/echo', 'team/a', 'team/b', 'team/c', 'team/d'];
let gateway: TestGateway;
before(async () => {
  const config = configSchema.parse({
    providers: [{ id: 'builtin', type: 'builtin' }],
    models: modelIds.map((id) => ({ id, provider: 'builtin', upstream_model: 'echo', created: 1_767_225_600 })),
  });
  gateway = await startGateway({ config });
});
after(() => gateway.close());

describe('the model list in each SDK', () => {
  test('OpenAI SDK: the OpenAI list with capabilities', async () => {
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    assert.deepEqual(ids, modelIds);
    assert.equal((await openai.models.retrieve('team/a')).owned_by, 'builtin');
  });

  test('Anthropic SDK 1.x (Bearer): pages through the Anthropic list with after_id', async () => {
    const anthropic = new Anthropic({ authToken: gateway.apiKey, apiKey: null, baseURL: gateway.origin, maxRetries: 0 });
    const first = await anthropic.models.list({ limit: 2 });
    assert.deepEqual(first.data, [
      { id: 'builtin/echo', type: 'model', display_name: 'builtin/echo', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'team/a', type: 'model', display_name: 'team/a', created_at: '2026-01-01T00:00:00.000Z' },
    ]);
    assert.equal(first.has_more, true);
    const ids = [];
    for await (const model of anthropic.models.list({ limit: 2 })) ids.push(model.id);
    assert.deepEqual(ids, modelIds, 'the SDK follows last_id until has_more is false');
    const model = await anthropic.models.retrieve('team/c');
    assert.equal(model.type, 'model');
    assert.equal(model.id, 'team/c');
  });

  test('Anthropic SDK 0.x (x-api-key): the same list; a bad key and an unknown model in its error shape', async () => {
    const anthropic = new Anthropic0({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    const page = await anthropic.models.list({ limit: 3, after_id: 'team/a' });
    assert.deepEqual(page.data.map((model) => model.id), ['team/b', 'team/c', 'team/d']);
    assert.equal(page.has_more, false);
    assert.equal(page.last_id, 'team/d');
    await assert.rejects(anthropic.models.retrieve('no/such-model'), (error: unknown) => {
      assert.ok(error instanceof Anthropic0.NotFoundError);
      assert.equal((error.error as { type: string }).type, 'error');
      return true;
    });
    const wrong = new Anthropic0({ apiKey: 'sk-gw-wrong', baseURL: gateway.origin, maxRetries: 0 });
    await assert.rejects(wrong.models.list(), Anthropic0.AuthenticationError);
  });

  test("Gemini SDK on apiVersion v1: the Gemini list and model at /v1/models, paged; errors in Google's shape", async () => {
    const genai = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin, apiVersion: 'v1' } });
    const names = [];
    for await (const model of await genai.models.list({ config: { pageSize: 2 } })) names.push(model.name);
    assert.deepEqual(names, modelIds.map((id) => `models/${id}`));
    const model = await genai.models.get({ model: 'team/b' });
    assert.equal(model.name, 'models/team/b');
    assert.ok(model.supportedActions?.includes('generateContent'));
    await assert.rejects(genai.models.get({ model: 'no/such-model' }), (error: unknown) => error instanceof ApiError && error.status === 404);
    const raw = await fetch(`${gateway.origin}/v1/models?key=sk-gw-wrong`);
    assert.equal(raw.status, 401);
    assert.equal(((await raw.json()) as { error: { status: string } }).error.status, 'UNAUTHENTICATED');
  });

  test('before_id pages backward, keeping the models nearest the cursor', async () => {
    const response = await fetch(`${gateway.origin}/v1/models?limit=2&before_id=team%2Fd`, {
      headers: { 'x-api-key': gateway.apiKey, 'anthropic-version': '2023-06-01' },
    });
    const page = (await response.json()) as { data: Array<{ id: string }>; has_more: boolean; first_id: string };
    assert.deepEqual(page.data.map((model) => model.id), ['team/b', 'team/c']);
    assert.equal(page.has_more, true);
    assert.equal(page.first_id, 'team/b');
  });

  test('a page size of Infinity or -Infinity is a 400 in each shape, not every model', async () => {
    // Ajv coerces the text to a number and skips minimum and maximum for it (finite-query-numbers.ts).
    const shapes: Array<{ query: string; headers: Record<string, string>; error: (body: any) => boolean }> = [
      { query: 'limit', headers: { 'x-api-key': gateway.apiKey, 'anthropic-version': '2023-06-01' }, error: (body: any) => body.error.type === 'invalid_request_error' && body.type === 'error' },
      { query: 'pageSize', headers: { 'x-goog-api-key': gateway.apiKey }, error: (body: any) => body.error.status === 'INVALID_ARGUMENT' },
    ];
    for (const { query, headers, error } of shapes) {
      for (const value of ['Infinity', '-Infinity']) {
        const response = await fetch(`${gateway.origin}/v1/models?${query}=${value}`, { headers });
        const body = await response.json();
        assert.equal(response.status, 400, `${query}=${value}`);
        assert.ok(error(body), JSON.stringify(body));
        assert.match(JSON.stringify(body), new RegExp(`${query} must be a finite number`));
      }
    }
  });
});

describe('image models in each list', () => {
  let withImages: TestGateway;
  before(async () => (withImages = await startGateway()));
  after(() => withImages.close());

  test('OpenAI lists them, Anthropic leaves them out, Gemini lists them for predict only', async () => {
    const openai = new OpenAI({ apiKey: withImages.apiKey, baseURL: `${withImages.origin}/v1`, maxRetries: 0 });
    const listed = (await openai.models.list()).data.map((model) => model.id);
    assert.deepEqual(listed, ['builtin/echo', 'builtin/embed', 'builtin/image', 'builtin/image-edit']);

    const anthropic = new Anthropic({ authToken: withImages.apiKey, apiKey: null, baseURL: withImages.origin, maxRetries: 0 });
    assert.deepEqual((await anthropic.models.list()).data.map((model) => model.id), ['builtin/echo']);

    const google = new GoogleGenAI({ apiKey: withImages.apiKey, httpOptions: { baseUrl: withImages.origin } });
    const methods = new Map<string, string[] | undefined>();
    for await (const model of await google.models.list()) methods.set(model.name!, model.supportedActions);
    assert.deepEqual(methods.get('models/builtin/image'), ['predict']);
    assert.ok(methods.get('models/builtin/echo')?.includes('generateContent'));
  });
});

describe('the Gemini model shape reports the model’s own token limits', () => {
  test('from the price catalog for a model naming a known upstream model, else the provider type’s nominal ones', async () => {
    const config = configSchema.parse({
      providers: [{ id: 'claude', type: 'anthropic', base_url: 'http://127.0.0.1:9', api_key: 'sk-unused' }],
      models: [
        { id: 'haiku', provider: 'claude', upstream_model: 'claude-haiku-4-5-20251001' },
        { id: 'own', provider: 'claude', upstream_model: 'claude-haiku-4-5', context_window: 150_000, max_output_tokens: 4_000 },
        { id: 'unknown', provider: 'claude', upstream_model: 'claude-not-in-the-catalog' },
      ],
    });
    const limited = await startGateway({ config: withCatalog(config, await loadPriceCatalog()) });
    try {
      const genai = new GoogleGenAI({ apiKey: limited.apiKey, httpOptions: { baseUrl: limited.origin, apiVersion: 'v1' } });
      const limits = async (model: string) => {
        const { inputTokenLimit, outputTokenLimit } = await genai.models.get({ model });
        return [inputTokenLimit, outputTokenLimit];
      };
      // Claude Haiku 4.5: 200K context, 64K output (catalog/models/anthropic.yaml, from Anthropic's model page).
      assert.deepEqual(await limits('haiku'), [200_000, 64_000]);
      assert.deepEqual(await limits('own'), [150_000, 4_000], 'the model’s own config wins');
      assert.deepEqual(await limits('unknown'), [200_000, 64_000], 'the Anthropic type’s nominal limits');
    } finally {
      await limited.close();
    }
  });
});
