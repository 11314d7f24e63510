// Providers speaking Chat Completions upstream: OpenAI, OpenAI-compatible servers and Azure OpenAI (whose
// strict fake checks Azure's URL, key header and deployment, then replays the OpenAI recordings).
import { startFakeAzureOpenAI } from '../fake-azure-openai.js';
import { startFakeUpstream } from '../fake-upstream.js';
import { startUpstreamGateway, upstreamKey, upstreamModel } from '../upstream-gateway.js';
import { gatewayOver } from './gateway-over.js';
import type { UpstreamProfile, UpstreamSide } from './profile.js';
import { scriptedFake } from './replies.js';
import { openaiChatAnswers } from './wire-answers.js';
import { openaiChatReader, type Received } from './wire-readers.js';

const modelInBody = (request: Received) => (request.json as { model?: string }).model;

const openaiSide: UpstreamSide = {
  wire: openaiChatReader,
  passThrough: 'chat',
  path: () => '/v1/chat/completions',
  authenticated: (request) => request.headers.authorization === `Bearer ${upstreamKey}`,
  modelOf: modelInBody,
  ...openaiChatAnswers,
};

export function openaiProfile(type: 'openai' | 'openai-compatible'): UpstreamProfile {
  return {
    name: type,
    type,
    async start(options = {}) {
      // Self-hosted models are not assumed to see images: this one says it does.
      const vision = type === 'openai-compatible' ? { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'] } : {};
      const setup = await startUpstreamGateway(type, { model: { ...vision, ...options.model } });
      return { gateway: setup.gateway, model: 'test-model', upstream: scriptedFake(setup.upstream), close: () => setup.close() };
    },
    upstream: openaiSide,
  };
}

/** Azure's v1 API (no `api_version`): the deployment named in the body, as OpenAI names its model. */
export const azureOpenaiProfile: UpstreamProfile = {
  name: 'azure-openai',
  type: 'azure-openai',
  async start(options = {}) {
    const upstream = await startFakeUpstream();
    const azure = await startFakeAzureOpenAI(upstreamKey, { [upstreamModel]: 'gpt-4o' }, { answerFrom: upstream });
    const gateway = await gatewayOver({ type: 'azure-openai', base_url: azure.endpoint, api_key: upstreamKey }, options);
    return {
      gateway,
      model: 'test-model',
      upstream: scriptedFake(upstream),
      async close() {
        await gateway.close();
        await azure.close();
        await upstream.close();
      },
    };
  },
  upstream: {
    ...openaiSide,
    path: () => '/openai/v1/chat/completions',
    authenticated: (request) => request.headers['api-key'] === upstreamKey && request.headers.authorization === undefined,
  },
};
