/**
 * Codex CLI (`codex exec`), on the OpenAI Responses API (`wire_api = "responses"`, the only one it supports).
 * A provider block in ~/.codex/config.toml names the base URL (with /v1) and the environment variable that
 * holds the key; see https://github.com/openai/codex/blob/main/docs/config.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient } from './agent-client.js';

export const KEY_VARIABLE = 'GATEWAY_API_KEY';

/** The config.toml the README shows (with the gateway's address). */
export function codexConfig(baseUrl: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "gateway"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.gateway]',
    'name = "Unified Model API"',
    `base_url = "${baseUrl}"`,
    `env_key = "${KEY_VARIABLE}"`,
    'wire_api = "responses"',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
}

/** How one way of pointing Codex at the gateway differs from another: everything else is `codexClient`'s. */
export interface CodexVariant extends Pick<AgentClient, 'name' | 'sameRequestsAs' | 'transport' | 'compacts'> {
  /** The config.toml it reads from CODEX_HOME, for the gateway's base URL (with /v1). */
  config(baseUrl: string, model: string): string;
  /** The environment variable it takes the key from. */
  keyVariable: string;
}

/** Codex run one-shot (`codex exec`) with a fresh CODEX_HOME holding the variant's config.toml. */
export function codexClient({ config, keyVariable, ...client }: CodexVariant): AgentClient {
  return {
    ...client,
    npmPackage: '@openai/codex',
    version: '0.171.0',
    bin: 'codex',
    protocol: 'openai-responses',
    authHeader: 'authorization',
    readFileTool: (file) => ({ name: 'exec_command', arguments: { cmd: `cat ${file}` } }),
    async prepare({ home, origin, apiKey, model, prompt }) {
      const codexHome = join(home, '.codex');
      await mkdir(codexHome, { recursive: true });
      await writeFile(join(codexHome, 'config.toml'), config(`${origin}/v1`, model));
      return {
        // exec never asks for approval; its default read-only sandbox still lets `cat` run.
        args: ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', prompt],
        env: { [keyVariable]: apiKey, CODEX_HOME: codexHome },
      };
    },
  };
}

export const codex = codexClient({ name: 'codex', config: codexConfig, keyVariable: KEY_VARIABLE });
