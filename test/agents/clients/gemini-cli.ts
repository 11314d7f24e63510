/**
 * Gemini CLI (`gemini -p`), on Gemini generateContent. GOOGLE_GEMINI_BASE_URL (without a version) and
 * GEMINI_API_KEY point it at the gateway; without `security.auth.selectedType` in ~/.gemini/settings.json it
 * exits 41 (no auth method), and without GEMINI_CLI_TRUST_WORKSPACE=true it exits 55 (untrusted folder).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient } from './agent-client.js';

export const geminiSettings = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

export const geminiCli: AgentClient = {
  name: 'gemini-cli',
  npmPackage: '@google/gemini-cli',
  version: '0.61.0',
  bin: 'gemini',
  protocol: 'gemini',
  authHeader: 'x-goog-api-key',
  readFileTool: (file) => ({ name: 'read_file', arguments: { file_path: file } }),
  async prepare({ home, origin, apiKey, model, prompt }) {
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(geminiSettings, null, 2));
    return {
      // In -p mode it runs only tools that need no confirmation; read_file is one.
      args: ['-m', model, '-p', prompt],
      env: { GOOGLE_GEMINI_BASE_URL: origin, GEMINI_API_KEY: apiKey, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    };
  },
};
