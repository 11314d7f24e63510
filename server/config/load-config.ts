import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadPriceCatalog, withCatalog } from './price-catalog/price-catalog.js';
import { configSchema, type GatewayConfig } from './config-schema.js';
import { defaultConfig } from './default-config.js';
import { ConfigError, formatPath, interpolateEnv } from './interpolate-env.js';
import { lineOfPath } from './line-of-path.js';

/**
 * Reads the config file at `path` (or `./gateway.yaml` when it exists), interpolates `${ENV}` values and
 * validates it, then fills in the models' prices and limits from the price catalog (built-in, then the
 * file's `pricing_catalogs`: catalog/README.md). Throws a ConfigError whose message names the file, the
 * offending field and its line.
 */
export async function loadConfig(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  const file = path ?? (existsSync('gateway.yaml') ? 'gateway.yaml' : undefined);
  if (!file) return defaultConfig;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  const config = parseConfig(text, file, env);
  return withCatalog(config, await loadPriceCatalog(config.pricing_catalogs, dirname(file)));
}

/** Parses and validates config text; `source` names the file in error messages. */
export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${source}: invalid YAML: ${(error as Error).message}`);
  }
  try {
    raw = interpolateEnv(raw, env);
  } catch (error) {
    throw new ConfigError(`${source}: ${(error as Error).message}`);
  }
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const line = lineOfPath(text, issue.path);
      return `${line === undefined ? '' : `line ${line}: `}${formatPath(issue.path) || '(root)'}: ${issue.message}`;
    });
    throw new ConfigError(`${source}: invalid configuration\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}
