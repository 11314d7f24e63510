import type { AgentClient } from './agent-client.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { geminiCli } from './gemini-cli.js';
import { opencode } from './opencode.js';

/** Every coding agent the harness runs, one per client protocol. */
export const agentClients: AgentClient[] = [claudeCode, codex, geminiCli, opencode];
