import type { ProviderConfig } from '../config/config-schema.js';
import type { ConfigProblem, ProviderServes } from './provider-definition.js';
import { providerDefinition, providerDefinitions, providerTypes, type ProviderType, type RegisteredDefinition } from './registry.js';

/**
 * The provider entry's keys that belong to some types only, derived from the definitions' `config.keys`:
 * config/config-schema.ts adds them to the common keys, and providerConfigProblems refuses each on the
 * types that do not declare it.
 */

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;

/** Every type's keys in one shape, typed, so provider code reads `config.region` without casts. */
export type TypeSpecificConfigKeys = UnionToIntersection<RegisteredDefinition['config']['keys']>;

export const typeSpecificConfigKeys = mergeKeys();

/** The types that declare each type-specific key. */
const typesTaking = new Map<string, ProviderType[]>(
  Object.keys(typeSpecificConfigKeys).map((key) => [key, providerTypes.filter((type) => key in providerDefinition(type).config.keys)]),
);

/**
 * What is wrong with a provider entry beyond each key's own schema: keys its type does not take, then the
 * rules of its type's definition.
 *
 * @example
 * providerConfigProblems({ id: 'o', type: 'openai', region: 'us-east-1' });
 * // → [{ path: ['region'], message: 'region is for bedrock providers only' }]
 */
export function providerConfigProblems(provider: ProviderConfig): ConfigProblem[] {
  const definition = providerDefinition(provider.type);
  const misplaced = [...typesTaking]
    .filter(([key]) => provider[key as keyof ProviderConfig] !== undefined && !(key in definition.config.keys))
    .map(([key, types]) => ({ path: [key], message: `${key} is for ${listOf(types)} providers only` }));
  return [...misplaced, ...(definition.config.problems?.(provider) ?? [])];
}

/**
 * The types whose definitions serve a kind of call, for messages that name them.
 *
 * @example typesServing('images') // ['openai', 'gemini', 'openai-compatible', 'builtin', 'azure-openai']
 */
export function typesServing(kind: keyof ProviderServes): ProviderType[] {
  return providerTypes.filter((type) => providerDefinition(type).serves[kind]);
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Types that share a key spread the same schema (openai/config-keys.ts); two different ones would make the key mean two things. */
function mergeKeys(): TypeSpecificConfigKeys {
  const merged: Record<string, unknown> = {};
  for (const definition of providerDefinitions) {
    for (const [key, schema] of Object.entries(definition.config.keys)) {
      if (key in merged && merged[key] !== schema) throw new Error(`provider definitions declare config key '${key}' with different schemas; share one`);
      merged[key] = schema;
    }
  }
  return merged as TypeSpecificConfigKeys;
}
