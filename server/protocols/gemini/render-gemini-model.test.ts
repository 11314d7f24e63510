import assert from 'node:assert/strict';
import { defaultModelImages } from '../../config/config-schema.js';
import { describe, it } from 'node:test';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import { GatewayError } from '../../core/gateway-error.js';
import { renderGeminiModel, renderGeminiModelPage } from './render-gemini-model.js';

const model = (id: string, extra: Partial<RegisteredModel> = {}): RegisteredModel => ({
  id,
  capabilities: ['chat', 'streaming', 'tools'],
  onUnsupported: 'drop',
  created: 0,
  ownedBy: 'builtin',
  deployments: [],
  fallbacks: [],
  sessionAffinity: true,
  batch: 'gateway',
  images: defaultModelImages,
  ...extra,
});

describe('renderGeminiModel', () => {
  it('names the model models/<id> and lists the methods it serves', () => {
    const rendered = renderGeminiModel(model('builtin/echo'));
    assertMatchesSchema('GeminiModel', rendered);
    assert.equal(rendered.name, 'models/builtin/echo');
    assert.equal(rendered.displayName, 'builtin/echo');
    assert.deepEqual(rendered.supportedGenerationMethods, ['generateContent', 'streamGenerateContent', 'countTokens']);
    assert.equal(rendered.inputTokenLimit, 128_000);
    const thinking = renderGeminiModel(model('g', { ownedBy: 'gemini', capabilities: ['chat', 'reasoning'] }));
    assert.deepEqual(thinking.supportedGenerationMethods, ['generateContent', 'countTokens']);
    assert.equal(thinking.thinking, true);
    assert.equal(thinking.inputTokenLimit, 1_048_576);
  });

  it('lists the embedding actions of a model that embeds, and predict for an image-only one', () => {
    assert.deepEqual(renderGeminiModel(model('e', { ownedBy: 'gemini', capabilities: ['embeddings'] })).supportedGenerationMethods, ['embedContent', 'batchEmbedContents']);
    assert.deepEqual(renderGeminiModel(model('i', { ownedBy: 'gemini', capabilities: ['image_generation'] })).supportedGenerationMethods, ['predict']);
  });
});

describe('renderGeminiModelPage', () => {
  const models = ['a', 'b/c', 'd', 'e'].map((id) => model(id));

  it('pages with nextPageToken until the last page', () => {
    const first = renderGeminiModelPage(models, { pageSize: 2 });
    assert.deepEqual(first.models.map((entry) => entry.name), ['models/a', 'models/b/c']);
    assert.ok(first.nextPageToken);
    const second = renderGeminiModelPage(models, { pageSize: 2, pageToken: first.nextPageToken });
    assert.deepEqual(second.models.map((entry) => entry.name), ['models/d', 'models/e']);
    assert.equal(second.nextPageToken, undefined);
    assertMatchesSchema('GeminiModelList', second);
  });

  it('refuses a token it did not make', () => {
    assert.throws(() => renderGeminiModelPage(models, { pageSize: 2, pageToken: 'bm9wZQ' }), (error: GatewayError) => error.status === 400);
  });
});
