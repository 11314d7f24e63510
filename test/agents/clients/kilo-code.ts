/**
 * Kilo Code's CLI (`kilo run`), a fork of opencode, on OpenAI Chat Completions through the same bundled
 * @ai-sdk/openai-compatible: the provider block opencode reads from opencode.json, in ~/.config/kilo/kilo.json
 * (https://kilo.ai/docs/cli, "custom providers"). `enabled_providers` keeps its own Kilo gateway provider out.
 * Pinned to 7.7.7: 7.8.1, the newest, lists platform packages (`@kilocode/cli-linux-x64@7.8.1` …) the registry
 * does not have, and its install script fails without one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient } from './agent-client.js';
import { KEY_VARIABLE, opencodeConfig } from './opencode.js';

/** The kilo.json the README shows (with the gateway's address): opencode's, less its schema URL. */
export function kiloConfig(baseUrl: string, model: string): Record<string, unknown> {
  const { $schema: _schema, ...config } = opencodeConfig(baseUrl, model);
  return { ...config, enabled_providers: ['gateway'] };
}

export const kiloCode: AgentClient = {
  name: 'kilo-code',
  npmPackage: '@kilocode/cli',
  version: '7.7.7',
  bin: 'kilo',
  protocol: 'openai-chat',
  authHeader: 'authorization',
  readFileTool: (file) => ({ name: 'read', arguments: { filePath: file } }),
  async prepare({ home, origin, apiKey, model, prompt }) {
    await mkdir(join(home, '.config', 'kilo'), { recursive: true });
    await writeFile(join(home, '.config', 'kilo', 'kilo.json'), JSON.stringify(kiloConfig(`${origin}/v1`, model), null, 2));
    return {
      args: ['run', prompt],
      env: {
        [KEY_VARIABLE]: apiKey,
        // Nothing fetched or left running: no update, model list, default plugins, language servers,
        // telemetry or background daemon (which would outlive the one-shot run).
        KILO_DISABLE_AUTOUPDATE: 'true',
        KILO_DISABLE_MODELS_FETCH: 'true',
        KILO_DISABLE_DEFAULT_PLUGINS: 'true',
        KILO_DISABLE_LSP_DOWNLOAD: 'true',
        KILO_DISABLE_SHARE: 'true',
        KILO_TELEMETRY_LEVEL: 'off',
        KILO_NO_DAEMON: '1',
      },
    };
  },
};
