import type { AgentClient } from './agent-client.js';
import { agentsSdkChat, agentsSdkResponses } from './agents-sdk.js';
import { claudeAgentSdk } from './claude-agent-sdk.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { codexCompaction, codexOpenAI, codexWebSocketProvider } from './codex-openai.js';
import { geminiCli } from './gemini-cli.js';
import { kiloCode } from './kilo-code.js';
import { opencode } from './opencode.js';
import { qwenCodeAnthropic, qwenCodeGemini, qwenCodeOpenAIChat, qwenCodeOpenAIResponses } from './qwen-code.js';

/**
 * Every coding agent the harness runs: one per client protocol, Codex configured its WebSocket ways too (and
 * set to compact), the OpenAI Agents SDK on each of its two APIs, and the Claude Agent SDK.
 */
export const agentClients: AgentClient[] = [
  agentsSdkChat, agentsSdkResponses, claudeAgentSdk, claudeCode, codex, codexOpenAI, codexWebSocketProvider, codexCompaction, geminiCli, opencode,
  qwenCodeOpenAIChat, qwenCodeOpenAIResponses, qwenCodeAnthropic, qwenCodeGemini, kiloCode,
];

/**
 * The clients whose requests are recorded (test/fixtures/clients/): those that are not another's under another
 * config, and can run against a bare scripted upstream (a session kept in the gateway's conversations cannot).
 */
export const recordedClients: AgentClient[] = agentClients.filter((client) => !client.sameRequestsAs && !client.session);
