/**
 * opencode (`opencode run`), on OpenAI Chat Completions through its bundled @ai-sdk/openai-compatible: a
 * provider block in ~/.config/opencode/opencode.json names the base URL (with /v1), the key and the models;
 * see https://opencode.ai/docs/providers/#custom-provider.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient } from './agent-client.js';

export const KEY_VARIABLE = 'GATEWAY_API_KEY';

/** The opencode.json the README shows (with the gateway's address). */
export function opencodeConfig(baseUrl: string, model: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      gateway: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Unified Model API',
        options: { baseURL: baseUrl, apiKey: `{env:${KEY_VARIABLE}}` },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    model: `gateway/${model}`,
    small_model: `gateway/${model}`,
    autoupdate: false,
    share: 'disabled',
  };
}

export const opencode: AgentClient = {
  name: 'opencode',
  npmPackage: 'opencode-ai',
  version: '1.18.33',
  bin: 'opencode',
  protocol: 'openai-chat',
  authHeader: 'authorization',
  readFileTool: (file) => ({ name: 'read', arguments: { filePath: file } }),
  async prepare({ home, origin, apiKey, model, prompt }) {
    await mkdir(join(home, '.config', 'opencode'), { recursive: true });
    await writeFile(join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify(opencodeConfig(`${origin}/v1`, model), null, 2));
    return {
      args: ['run', prompt],
      env: {
        [KEY_VARIABLE]: apiKey,
        // Nothing fetched at run time: no update, model list, default plugins or language servers.
        OPENCODE_DISABLE_AUTOUPDATE: 'true',
        OPENCODE_DISABLE_MODELS_FETCH: 'true',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: 'true',
        OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
      },
    };
  },
};
