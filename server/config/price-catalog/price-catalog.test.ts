import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { configSchema } from '../config-schema.js';
import { loadConfig } from '../load-config.js';
import { ConfigError } from '../interpolate-env.js';
import { loadPriceCatalog, parseCatalogFile, withCatalog } from './price-catalog.js';

const config = (models: unknown[]) =>
  configSchema.parse({
    providers: [
      { id: 'claude', type: 'anthropic', api_key: 'k' },
      { id: 'oai', type: 'openai', api_key: 'k' },
    ],
    models,
  });

test('the built-in catalog is valid and covers every provider the issue names, each figure with its page and date', async () => {
  const catalog = await loadPriceCatalog();
  assert.ok(catalog.size >= 20, `${catalog.size} models`);
  for (const [type, model] of [
    ['openai', 'gpt-5'],
    ['openai', 'gpt-5-mini'],
    ['anthropic', 'claude-sonnet-4-5'],
    ['anthropic', 'claude-haiku-4-5'],
    ['gemini', 'gemini-2.5-pro'],
    ['gemini', 'gemini-2.5-flash'],
    ['vertex', 'gemini-2.5-pro'],
    ['vertex', 'claude-sonnet-4-5@20250929'],
    ['bedrock', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ['bedrock', 'amazon.nova-lite-v1:0'],
    ['azure-openai', 'gpt-5'],
  ] as const) {
    const entry = catalog.find(type, model);
    assert.ok(entry, `${type} ${model}`);
    assert.match(entry.source, /^https:\/\//);
    assert.match(entry.as_of, /^\d{4}-\d{2}-\d{2}$/);
  }
  // A dated snapshot is an alias of its model.
  assert.equal(catalog.find('anthropic', 'claude-sonnet-4-5-20250929'), catalog.find('anthropic', 'claude-sonnet-4-5'));
  assert.equal(catalog.find('openai', 'claude-sonnet-4-5'), undefined, 'prices are per provider type');
});

test('a model naming a known upstream model gets its prices and limits; its own pricing and limits win', async () => {
  const catalog = await loadPriceCatalog();
  const [known, own, unknown] = withCatalog(
    config([
      { id: 'sonnet', provider: 'claude', upstream_model: 'claude-sonnet-4-5' },
      { id: 'mine', provider: 'claude', upstream_model: 'claude-sonnet-4-5', pricing: { input_per_mtok: 1 }, max_output_tokens: 100 },
      { id: 'other', provider: 'oai', upstream_model: 'not-in-the-catalog' },
    ]),
    catalog,
  ).models;
  assert.equal(known!.pricing?.input_per_mtok, 3);
  assert.equal(known!.pricing?.cache_write_1h_per_mtok, 6);
  assert.equal(known!.context_window, 200_000);
  assert.equal(known!.max_output_tokens, 64_000);
  assert.deepEqual(own!.pricing, { input_per_mtok: 1, output_per_mtok: 0, per_image: 0 }, 'the own pricing whole, not merged');
  assert.equal(own!.max_output_tokens, 100);
  assert.equal(own!.context_window, 200_000);
  assert.equal(unknown!.pricing, undefined);
});

test('with deployments, the first deployment the catalog knows prices the model', async () => {
  const catalog = await loadPriceCatalog();
  const [model] = withCatalog(
    config([{ id: 'm', deployments: [{ provider: 'oai', upstream_model: 'unknown' }, { provider: 'oai', upstream_model: 'gpt-5-mini' }] }]),
    catalog,
  ).models;
  assert.equal(model!.pricing?.input_per_mtok, 0.25);
});

test("an operator's catalog file, named in the config, replaces built-in entries and adds its own", async () => {
  const folder = await mkdtemp(join(tmpdir(), 'catalog-'));
  try {
    await writeFile(
      join(folder, 'negotiated.yaml'),
      `provider: anthropic
models:
  - model: claude-sonnet-4-5
    pricing: { input_per_mtok: 2.4, output_per_mtok: 12 }
    source: https://example.com/our-contract
    as_of: 2026-11-01
  - model: claude-internal
    context_window: 50000
    pricing: { input_per_mtok: 1, output_per_mtok: 2 }
    source: https://example.com/our-contract
    as_of: 2026-11-01
`,
    );
    await writeFile(
      join(folder, 'gateway.yaml'),
      `pricing_catalogs: [negotiated.yaml]
providers: [{ id: claude, type: anthropic, api_key: k }]
models:
  - { id: sonnet, provider: claude, upstream_model: claude-sonnet-4-5 }
  - { id: internal, provider: claude, upstream_model: claude-internal }
  - { id: haiku, provider: claude, upstream_model: claude-haiku-4-5 }
`,
    );
    const loaded = await loadConfig(join(folder, 'gateway.yaml'), {});
    const byId = new Map(loaded.models.map((model) => [model.id, model]));
    assert.equal(byId.get('sonnet')!.pricing?.input_per_mtok, 2.4);
    assert.equal(byId.get('internal')!.context_window, 50_000);
    assert.equal(byId.get('haiku')!.pricing?.input_per_mtok, 1, 'the built-in catalog still prices the rest');
  } finally {
    await rm(folder, { recursive: true });
  }
});

test('a catalog file that is not valid is refused, naming the file and the entry at fault', async () => {
  assert.throws(
    () => parseCatalogFile('provider: anthropic\nmodels:\n  - model: x\n    pricing: { input_per_mtok: -1 }\n    source: https://example.com\n    as_of: 2026-11-01\n', 'mine.yaml'),
    (error: unknown) => error instanceof ConfigError && /mine\.yaml/.test(error.message) && /models\[0\]\.pricing\.input_per_mtok/.test(error.message),
  );
  assert.throws(() => parseCatalogFile('provider: nobody\nmodels: []\n', 'x.yaml'), /provider/);
  await assert.rejects(loadPriceCatalog(['/nonexistent/catalog.yaml']), /cannot read price catalog \/nonexistent\/catalog\.yaml/);
});
