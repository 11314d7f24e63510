import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { pricingSchema, type GatewayConfig, type ModelConfig, type ModelPricing } from '../config-schema.js';
import { ConfigError, formatPath } from '../interpolate-env.js';
import { projectRoot } from '../../project-root.js';
import { providerTypes, type ProviderType } from '../../providers/provider-config-rules.js';

/** The built-in catalog's files, one per provider type (catalog/README.md). */
export const builtinCatalogFolder = join(projectRoot, 'catalog/models');

/**
 * One model's entry: its prices, limits, and where each figure came from. `as_of` is the day the figures were
 * read from `source`; `source_note` says what is not from that page (a figure from memory, from a reseller's
 * page, a rule of thumb), so a reviewer knows what to check.
 */
const catalogEntrySchema = z.strictObject({
  model: z.string().min(1),
  /** Other names the provider serves the model by (dated snapshots, regional inference profiles). */
  aliases: z.array(z.string().min(1)).default([]),
  context_window: z.number().int().min(1).optional(),
  max_output_tokens: z.number().int().min(1).optional(),
  pricing: pricingSchema,
  source: z.url(),
  as_of: z.iso.date(),
  source_note: z.string().min(1).optional(),
});

const catalogFileSchema = z.strictObject({
  /** The provider type whose upstream model names the entries are (`upstream_model` of a model served by one). */
  provider: z.enum(providerTypes as [ProviderType, ...ProviderType[]]),
  models: z.array(catalogEntrySchema),
});

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

/** Prices and limits by provider type and upstream model name (or alias). */
export class PriceCatalog {
  private readonly entries = new Map<string, CatalogEntry>();

  /** Adds a file's entries; a later file's entry for the same name replaces an earlier one's. */
  add(provider: ProviderType, models: readonly CatalogEntry[]): void {
    for (const entry of models) {
      for (const name of [entry.model, ...entry.aliases]) this.entries.set(keyOf(provider, name), entry);
    }
  }

  find(provider: ProviderType, upstreamModel: string): CatalogEntry | undefined {
    return this.entries.get(keyOf(provider, upstreamModel));
  }

  get size(): number {
    return new Set(this.entries.values()).size;
  }
}

const keyOf = (provider: ProviderType, model: string) => `${provider}\u0000${model}`;

/**
 * The built-in catalog, then the operator's files (`pricing_catalogs`, relative paths from the config file's
 * folder) in the order listed. Read at start-up and on a config reload, never per request. A file that is not
 * valid throws a ConfigError naming it and the entry at fault.
 */
export async function loadPriceCatalog(operatorFiles: readonly string[] = [], configFolder = process.cwd()): Promise<PriceCatalog> {
  const builtin = (await readdir(builtinCatalogFolder)).filter((name) => /\.(ya?ml|json)$/.test(name)).sort().map((name) => join(builtinCatalogFolder, name));
  const own = operatorFiles.map((file) => (isAbsolute(file) ? file : resolve(configFolder, file)));
  const files = await Promise.all([...builtin, ...own].map(async (file) => ({ file, text: await readCatalogFile(file) })));
  const catalog = new PriceCatalog();
  for (const { file, text } of files) {
    const { provider, models } = parseCatalogFile(text, file);
    catalog.add(provider, models);
  }
  return catalog;
}

async function readCatalogFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read price catalog ${file}: ${(error as Error).message}`);
  }
}

/** A catalog file's text (YAML, of which JSON is a part) checked against the catalog's form. */
export function parseCatalogFile(text: string, source: string): z.infer<typeof catalogFileSchema> {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source}: invalid YAML: ${(error as Error).message}`);
  }
  const result = catalogFileSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${formatPath(issue.path) || '(root)'}: ${issue.message}`);
    throw new ConfigError(`${source}: invalid price catalog\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/**
 * The config with each model's prices and limits filled in from the catalog where its own config leaves them
 * out: the entry of its first deployment (in order) whose provider type and upstream model the catalog knows.
 * A model's own `pricing` wins whole (prices are not merged field by field: a partial price list would
 * silently mix two sources); its own `context_window` and `max_output_tokens` win each on its own.
 */
export function withCatalog(config: GatewayConfig, catalog: PriceCatalog): GatewayConfig {
  const typeOf = new Map(config.providers.map((provider) => [provider.id, provider.type]));
  const models = config.models.map((model): ModelConfig => {
    const entry = catalogEntryOf(model, typeOf, catalog);
    if (!entry) return model;
    const pricing: ModelPricing = model.pricing ?? entry.pricing;
    return {
      ...model,
      pricing,
      context_window: model.context_window ?? entry.context_window,
      max_output_tokens: model.max_output_tokens ?? entry.max_output_tokens,
    };
  });
  return { ...config, models };
}

function catalogEntryOf(model: ModelConfig, typeOf: Map<string, ProviderType>, catalog: PriceCatalog): CatalogEntry | undefined {
  const deployments = model.deployments ?? [{ provider: model.provider!, upstream_model: model.upstream_model }];
  for (const deployment of deployments) {
    const type = typeOf.get(deployment.provider);
    const entry = type && catalog.find(type, deployment.upstream_model ?? model.id);
    if (entry) return entry;
  }
  return undefined;
}
