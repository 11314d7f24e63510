/**
 * Claude Code (`claude -p`), on Anthropic Messages. Its settings come from the environment: ANTHROPIC_BASE_URL
 * (without /v1), ANTHROPIC_AUTH_TOKEN (sent as `Authorization: Bearer`; ANTHROPIC_API_KEY would go as
 * `x-api-key`), ANTHROPIC_MODEL and the small model for side requests. CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
 * turns off telemetry, error reports and the update check in one.
 */
import type { AgentClient } from './agent-client.js';

export const claudeCode: AgentClient = {
  name: 'claude-code',
  npmPackage: '@anthropic-ai/claude-code',
  version: '2.1.332',
  bin: 'claude',
  protocol: 'anthropic-messages',
  authHeader: 'authorization',
  readFileTool: (file) => ({ name: 'Read', arguments: { file_path: file } }),
  async prepare({ origin, apiKey, model, prompt }) {
    return {
      // --tools Read: the built-in model calls the first tool offered, so offer only a harmless one.
      // --allowedTools Read: -p has nobody to ask for permission.
      args: ['-p', prompt, '--model', model, '--tools', 'Read', '--allowedTools', 'Read', '--no-session-persistence', '--output-format', 'text'],
      env: {
        ANTHROPIC_BASE_URL: origin,
        ANTHROPIC_AUTH_TOKEN: apiKey,
        ANTHROPIC_MODEL: model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
        ANTHROPIC_SMALL_FAST_MODEL: model,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    };
  },
};
