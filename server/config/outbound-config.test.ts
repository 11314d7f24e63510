import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inlinesImageUrls } from '../providers/registry.js';
import { configSchema } from './config-schema.js';

test('outbound defaults: nothing allow-listed, 10 MiB, 10 s, 3 redirects, 16 URLs per request', () => {
  assert.deepEqual(configSchema.parse({}).outbound, { allow: [], max_bytes: 10_485_760, timeout_ms: 10_000, max_redirects: 3, max_urls_per_request: 16 });
});

test('a malformed allow-list entry or an unknown outbound key stops start-up, naming the field', () => {
  const bad = configSchema.safeParse({ outbound: { allow: ['10.0.0.0/40'] } });
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues[0]!.path, ['outbound', 'allow', 0]);
  assert.equal(configSchema.safeParse({ outbound: { max_byte: 5 } }).success, false);
});

test('inline_image_urls: on by default for openai-compatible, always for bedrock, and refused on providers that do not take it', () => {
  const provider = (type: string, extra: Record<string, unknown> = {}) =>
    configSchema.parse({ providers: [{ id: 'p', type, base_url: 'http://127.0.0.1:1/v1', ...extra }] }).providers[0]!;
  assert.equal(inlinesImageUrls(provider('openai-compatible')), true);
  assert.equal(inlinesImageUrls(provider('openai-compatible', { inline_image_urls: false })), false);
  assert.equal(inlinesImageUrls(provider('openai')), false);
  assert.equal(inlinesImageUrls(provider('openai', { inline_image_urls: true })), true);
  assert.equal(inlinesImageUrls(provider('anthropic')), false);
  const refused = configSchema.safeParse({ providers: [{ id: 'a', type: 'anthropic', inline_image_urls: true }] });
  assert.equal(refused.success, false);
  assert.equal(refused.error!.issues[0]!.message, 'inline_image_urls is for openai, openai-compatible and azure-openai providers only');
  assert.equal(inlinesImageUrls(provider('bedrock', { region: 'us-east-1' })), true);
  assert.equal(configSchema.safeParse({ providers: [{ id: 'b', type: 'bedrock', inline_image_urls: false }] }).success, false, 'bedrock takes images only as bytes');
});
