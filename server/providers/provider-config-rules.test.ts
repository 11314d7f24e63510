import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderConfig } from '../config/config-schema.js';
import { configSchema } from '../config/config-schema.js';
import { providerConfigProblems, typesServing } from './provider-config-rules.js';

const entry = (provider: Record<string, unknown>) => provider as unknown as ProviderConfig;

describe('providerConfigProblems', () => {
  it('refuses a key on a type whose definition does not declare it, naming the types that do', () => {
    assert.deepEqual(providerConfigProblems(entry({ id: 'o', type: 'openai', region: 'us-east-1' })), [{ path: ['region'], message: 'region is for bedrock providers only' }]);
    assert.deepEqual(providerConfigProblems(entry({ id: 'a', type: 'anthropic', api: 'responses' })), [
      { path: ['api'], message: 'api is for openai, openai-compatible and azure-openai providers only' },
    ]);
    assert.deepEqual(providerConfigProblems(entry({ id: 'o', type: 'openai', chunk_delay_ms: 5 })), [{ path: ['chunk_delay_ms'], message: 'chunk_delay_ms is for builtin providers only' }]);
  });

  it('takes a shared key on every type that declares it', () => {
    for (const type of ['openai', 'openai-compatible', 'azure-openai']) {
      const problems = providerConfigProblems(entry({ id: 'p', type, base_url: 'https://r.openai.azure.com', api_key: 'k', quirks: {}, api: 'responses', inline_image_urls: true }));
      assert.deepEqual(problems, [], type);
    }
  });

  it("adds the type's own rules after the misplaced keys", () => {
    const problems = providerConfigProblems(entry({ id: 'b', type: 'bedrock', api_key: 'k', location: 'global' }));
    assert.deepEqual(problems.map((problem) => problem.path[0]), ['location', 'api_key']);
  });
});

describe('the provider entry schema', () => {
  it('refuses a misplaced key with the path and message of the derived rule', () => {
    const result = configSchema.safeParse({ providers: [{ id: 'o', type: 'openai', aws_access_key_id: 'AKIA1', aws_secret_access_key: 's' }] });
    assert.equal(result.success, false);
    assert.deepEqual(
      result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]),
      [
        ['providers.0.aws_access_key_id', 'aws_access_key_id is for bedrock providers only'],
        ['providers.0.aws_secret_access_key', 'aws_secret_access_key is for bedrock providers only'],
      ],
    );
  });

  it('still checks each key against its own schema', () => {
    const result = configSchema.safeParse({ providers: [{ id: 'c', type: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', api: 'completions' }] });
    assert.equal(result.success, false);
    assert.deepEqual(result.error!.issues[0]!.path, ['providers', 0, 'api']);
  });
});

describe('typesServing', () => {
  it('lists the types whose definitions serve a kind of call, in registry order', () => {
    assert.deepEqual(typesServing('images'), ['openai', 'gemini', 'openai-compatible', 'builtin', 'azure-openai']);
    assert.deepEqual(typesServing('responses'), ['openai', 'openai-compatible', 'azure-openai']);
    assert.equal(typesServing('chat').length, 8);
  });
});
