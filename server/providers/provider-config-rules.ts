import type { ConfigProblem, ProviderEntry, ProviderServes } from '../config/provider-entry.js';
import { anthropicConfigEntry } from './anthropic/config-keys.js';
import { azureOpenAIConfigEntry } from './azure-openai/config-keys.js';
import { bedrockConfigEntry } from './bedrock/config-keys.js';
import { builtinConfigEntry } from './builtin/config-keys.js';
import { geminiConfigEntry } from './gemini/config-keys.js';
import { openaiCompatibleConfigEntry } from './openai-compatible/config-keys.js';
import { openAIConfigEntry } from './openai/config-keys.js';
import { vertexConfigEntry } from './vertex/config-keys.js';

/**
 * Every provider type's part of the config file (its folder's config-keys.ts), and the rules derived from
 * them: config/config-schema.ts builds the provider entry's schema from this list and refuses, with
 * providerConfigProblems, keys a type does not take and what its own rules refuse.
 *
 * This list is the provider types: adding one is its folder and a line here, and a line in registry.ts, whose
 * table of definitions is keyed by these types (the compiler refuses it without one). This module and the
 * ones it imports load no provider's code, only zod schemas and rules: the providers' code reads the parsed
 * config, so the config's schema must not need it (no import circle).
 */
export const providerConfigEntries = [
  openAIConfigEntry,
  anthropicConfigEntry,
  geminiConfigEntry,
  openaiCompatibleConfigEntry,
  builtinConfigEntry,
  azureOpenAIConfigEntry,
  bedrockConfigEntry,
  vertexConfigEntry,
] as const;

type ConfigEntry = (typeof providerConfigEntries)[number];

/** The `type` names a provider entry may have. */
export type ProviderType = ConfigEntry['type'];

export const providerTypes: readonly ProviderType[] = providerConfigEntries.map((entry) => entry.type);

const entriesByType = new Map<string, ConfigEntry>(providerConfigEntries.map((entry) => [entry.type, entry]));
if (entriesByType.size !== providerConfigEntries.length) throw new Error(`two provider config entries share a type: ${providerTypes.join(', ')}`);

function configEntry(type: ProviderType): ConfigEntry {
  return entriesByType.get(type)!;
}

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;

/**
 * The provider entry's keys that belong to some types only, from the entries' `config.keys`:
 * config/config-schema.ts adds them to the common keys, and providerConfigProblems refuses each on the
 * types that do not declare it. Every type's keys in one shape, typed, so provider code reads
 * `config.region` without casts.
 */
export type TypeSpecificConfigKeys = UnionToIntersection<ConfigEntry['config']['keys']>;

export const typeSpecificConfigKeys = mergeKeys();

/** A parsed provider entry of any type (config/config-schema.ts's ProviderConfig, which this module cannot import). */
type AnyProviderEntry = ProviderEntry<TypeSpecificConfigKeys> & { type: ProviderType };

/** The types that declare each type-specific key. */
const typesTaking = new Map<string, ProviderType[]>(
  Object.keys(typeSpecificConfigKeys).map((key) => [key, providerTypes.filter((type) => key in configEntry(type).config.keys)]),
);

/**
 * What is wrong with a provider entry beyond each key's own schema: keys its type does not take, then the
 * rules of its type's entry.
 *
 * @example
 * providerConfigProblems({ id: 'o', type: 'openai', region: 'us-east-1' });
 * // → [{ path: ['region'], message: 'region is for bedrock providers only' }]
 */
export function providerConfigProblems(provider: AnyProviderEntry): ConfigProblem[] {
  const entry = configEntry(provider.type);
  const misplaced = [...typesTaking]
    .filter(([key]) => provider[key as keyof AnyProviderEntry] !== undefined && !(key in entry.config.keys))
    .map(([key, types]) => ({ path: [key], message: `${key} is for ${listOf(types)} providers only` }));
  const config: { problems?(provider: AnyProviderEntry): ConfigProblem[] } = entry.config;
  return [...misplaced, ...(config.problems?.(provider) ?? [])];
}

/** Whether a provider type can answer a kind of call (see ProviderServes). */
export function typeServes(type: ProviderType, kind: keyof ProviderServes): boolean {
  return configEntry(type).serves[kind];
}

/**
 * The types that serve a kind of call, for messages that name them.
 *
 * @example typesServing('images') // ['openai', 'gemini', 'openai-compatible', 'builtin', 'azure-openai']
 */
export function typesServing(kind: keyof ProviderServes): ProviderType[] {
  return providerTypes.filter((type) => typeServes(type, kind));
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Types that share a key spread the same schema (openai/config-keys.ts); two different ones would make the key mean two things. */
function mergeKeys(): TypeSpecificConfigKeys {
  const merged: Record<string, unknown> = {};
  for (const entry of providerConfigEntries) {
    for (const [key, schema] of Object.entries(entry.config.keys)) {
      if (key in merged && merged[key] !== schema) throw new Error(`provider definitions declare config key '${key}' with different schemas; share one`);
      merged[key] = schema;
    }
  }
  return merged as TypeSpecificConfigKeys;
}
