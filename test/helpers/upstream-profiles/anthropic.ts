// Anthropic's Messages API, and Claude on Vertex (vertex.ts) which speaks it too.
import { startUpstreamGateway, upstreamKey, upstreamModel } from '../upstream-gateway.js';
import type { UpstreamProfile } from './profile.js';
import { scriptedFake } from './replies.js';
import { anthropicAnswers } from './wire-answers.js';
import { anthropicMessagesReader } from './wire-readers.js';

export const anthropicProfile: UpstreamProfile = {
  name: 'anthropic',
  type: 'anthropic',
  async start(options = {}) {
    const setup = await startUpstreamGateway('anthropic', { model: options.model });
    return { gateway: setup.gateway, model: 'test-model', upstream: scriptedFake(setup.upstream), close: () => setup.close() };
  },
  upstream: {
    wire: anthropicMessagesReader,
    passThrough: 'messages',
    path: () => '/v1/messages',
    authenticated: (request) => request.headers['x-api-key'] === upstreamKey && request.headers['anthropic-version'] === '2023-06-01' && !request.headers.authorization,
    modelOf: (request) => (request.json as { model?: string }).model,
    forwardedBody: (sent) => ({ ...sent, model: upstreamModel }),
    ...anthropicAnswers,
    count: { path: '/v1/messages/count_tokens', reply: (total) => ({ fake: { json: { input_tokens: total } } }) },
  },
};
