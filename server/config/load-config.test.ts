import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from './load-config.js';

const valid = `
providers:
  - id: openai-main
    type: openai
    base_url: https://api.openai.com/v1
    api_key: \${OPENAI_API_KEY}
models:
  - id: gpt-4o-mini
    provider: openai-main
    upstream_model: gpt-4o-mini
    capabilities: [chat, streaming, tools, vision, json_schema]
  - id: team/fast
    provider: openai-main
`;

test('parses the documented example with ${ENV} interpolation and defaults', () => {
  const config = parseConfig(valid, 'gateway.yaml', { OPENAI_API_KEY: 'sk-upstream' });
  assert.equal(config.providers[0].api_key, 'sk-upstream');
  assert.equal(config.models[1].capabilities, undefined, 'left to the provider-type default at registration');
  assert.equal(config.models[1].on_unsupported, 'drop');
  assert.equal(config.routing.max_attempts, 3);
  assert.equal(config.models[1].id, 'team/fast');
});

test('batch: upstream is taken on OpenAI, OpenAI-compatible and Anthropic providers; gateway is the default', () => {
  const config = parseConfig(
    'providers:\n  - { id: o, type: openai, api_key: k }\n  - { id: a, type: anthropic, api_key: k }\n  - { id: c, type: openai-compatible, base_url: "http://127.0.0.1:1/v1" }\nmodels:\n  - { id: m1, provider: o, batch: upstream }\n  - { id: m2, provider: a, batch: upstream }\n  - { id: m3, provider: c, batch: upstream }\n  - { id: m4, provider: o }\n',
    'gateway.yaml',
    {},
  );
  assert.deepEqual(config.models.map((model) => model.batch), ['upstream', 'upstream', 'upstream', 'gateway']);
});

test('supports ${ENV:-fallback}', () => {
  const config = parseConfig('providers:\n  - { id: b, type: builtin, base_url: "${URL:-http://localhost:1/v1}" }\n', 'x', {});
  assert.equal(config.providers[0].base_url, 'http://localhost:1/v1');
});

const failures: Array<[string, string, RegExp]> = [
  ['unset variable', valid, /providers\[0\]\.api_key: environment variable OPENAI_API_KEY is not set/],
  ['unknown provider type', 'providers:\n  - { id: p, type: openia }\n', /providers\[0\]\.type/],
  ['misspelt key', 'providers:\n  - { id: p, type: builtin, base_ulr: x }\n', /providers\[0\].*base_ulr/],
  ['model naming a missing provider', 'models:\n  - { id: m, provider: nope }\n', /models\[0\]\.provider: unknown provider 'nope'/],
  ['duplicate model', 'providers:\n  - { id: p, type: builtin }\nmodels:\n  - { id: m, provider: p }\n  - { id: m, provider: p }\n', /line 5: models\[1\]\.id: duplicate/],
  [
    'batch: upstream on a provider without a batch API',
    'providers:\n  - { id: g, type: gemini, api_key: k }\nmodels:\n  - { id: m, provider: g, batch: upstream }\n',
    /models\[0\]\.provider: batch: upstream needs a provider with a batch API of its own, and 'g' \(type gemini\) has none; use batch: gateway \(the default\), or a provider of type openai, .*anthropic/,
  ],
  ['bad batch mode', 'providers:\n  - { id: p, type: builtin }\nmodels:\n  - { id: m, provider: p, batch: later }\n', /models\[0\]\.batch/],
  ['bad capability', 'providers:\n  - { id: p, type: builtin }\nmodels:\n  - { id: m, provider: p, capabilities: [telepathy] }\n', /line 4: models\[0\]\.capabilities\[0\]/],
  // A missing field has no line of its own: the error names the line of what should hold it.
  ['a provider without an id', 'models: []\nproviders:\n  - { type: builtin }\n', /line 3: providers\[0\]\.id: /],
  ['invalid YAML', 'providers: [', /invalid YAML/],
  [
    'image capabilities on an Anthropic model',
    'providers:\n  - { id: c, type: anthropic }\nmodels:\n  - { id: m, provider: c, capabilities: [chat, image_generation] }\n',
    /models\[0\]\.provider: provider 'c' \(type anthropic\) cannot make images/,
  ],
  [
    'embeddings on an Anthropic deployment',
    'providers:\n  - { id: c, type: anthropic }\n  - { id: o, type: openai }\nmodels:\n  - { id: m, deployments: [{ provider: o }, { provider: c }], capabilities: [embeddings] }\n',
    /models\[0\]\.deployments\[1\]\.provider: provider 'c' \(type anthropic\) cannot embed text; embedding models need one of: .*builtin.*openai/,
  ],
  ['an image size that is not WIDTHxHEIGHT', 'providers:\n  - { id: p, type: builtin }\nmodels:\n  - { id: m, provider: p, images: { sizes: [big] } }\n', /models\[0\]\.images\.sizes\[0\]/],
  [
    'api: responses on a non-OpenAI provider',
    'providers:\n  - { id: p, type: anthropic, api: responses }\n',
    /providers\[0\]\.api: api is for openai, openai-compatible and azure-openai providers only/,
  ],
  ['a bedrock key on an openai provider', 'providers:\n  - { id: p, type: openai, aws_access_key_id: AKIA1 }\n', /providers\[0\]\.aws_access_key_id: aws_access_key_id is for bedrock providers only/],
  ['a key no type takes', 'providers:\n  - { id: p, type: openai, regoin: us-east-1 }\n', /providers\[0\].*regoin/],
];

for (const [name, text, message] of failures) {
  test(`refuses ${name} with a message naming the field`, () => {
    assert.throws(() => parseConfig(text, 'gateway.yaml', {}), message);
  });
}

test('the shipped gateway.example.yaml is valid', async () => {
  const { loadConfig } = await import('./load-config.js');
  const config = await loadConfig(new URL('../../gateway.example.yaml', import.meta.url).pathname, {});
  assert.ok(config.models.some((model) => model.id === 'builtin/echo'));
});
