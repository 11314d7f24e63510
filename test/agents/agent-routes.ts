/**
 * The routes every coding agent is run over: the built-in model, and a scripted upstream behind each
 * provider type the gateway speaks to (OpenAI Chat Completions, OpenAI Responses with `api: responses`,
 * Anthropic Messages, Gemini). Every route serves the same model ID, so a client's config does not change.
 */
import type { GatewayConfig } from '../../server/config/config-schema.js';
import { configSchema } from '../../server/config/config-schema.js';
import type { AgentClient } from './clients/agent-client.js';
import type { ScriptedProtocol } from './scripted-upstream/start-scripted-upstream.js';

/** The model ID every client is configured with. */
export const AGENT_MODEL = 'agent-model';
/** The key the gateway holds for the scripted upstream; it must never reach a client. */
export const UPSTREAM_KEY = 'sk-upstream-agents-0123456789';

export interface AgentRoute {
  name: 'builtin' | 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';
  config(upstreamOrigin: string): GatewayConfig;
  /** The protocol the gateway must speak to the upstream for this client; undefined: no upstream. */
  upstreamProtocol(client: AgentClient): ScriptedProtocol | undefined;
}

const upstreamConfig = (provider: Record<string, unknown>): GatewayConfig =>
  configSchema.parse({
    providers: [{ id: 'scripted', api_key: UPSTREAM_KEY, ...provider }],
    models: [{ id: AGENT_MODEL, provider: 'scripted', upstream_model: 'scripted-model' }],
  });

export const agentRoutes: AgentRoute[] = [
  {
    name: 'builtin',
    config: () =>
      configSchema.parse({
        providers: [{ id: 'builtin', type: 'builtin', chunk_delay_ms: 0 }],
        models: [{ id: AGENT_MODEL, provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'json_schema'] }],
      }),
    upstreamProtocol: () => undefined,
  },
  {
    name: 'openai-chat',
    config: (origin) => upstreamConfig({ type: 'openai', base_url: `${origin}/v1` }),
    upstreamProtocol: () => 'openai-chat',
  },
  {
    name: 'openai-responses',
    config: (origin) => upstreamConfig({ type: 'openai', base_url: `${origin}/v1`, api: 'responses' }),
    // Only Responses clients are forwarded to /responses; the others are served over Chat Completions.
    upstreamProtocol: (client) => (client.protocol === 'openai-responses' ? 'openai-responses' : 'openai-chat'),
  },
  {
    name: 'anthropic',
    config: (origin) => upstreamConfig({ type: 'anthropic', base_url: origin }),
    upstreamProtocol: () => 'anthropic-messages',
  },
  {
    name: 'gemini',
    config: (origin) => upstreamConfig({ type: 'gemini', base_url: origin }),
    upstreamProtocol: () => 'gemini',
  },
];
