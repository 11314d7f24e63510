// Google's Gemini API, and Gemini on Vertex (vertex.ts) which speaks it too.
import { startUpstreamGateway, upstreamKey, upstreamModel } from '../upstream-gateway.js';
import type { UpstreamProfile } from './profile.js';
import { scriptedFake } from './replies.js';
import { geminiAnswers } from './wire-answers.js';
import { geminiReader, type Received } from './wire-readers.js';

/** The model a Gemini-style path names: `…/models/<model>:<method>`. */
export const modelInPath = (request: Received) => /models\/([^:/]+):/.exec(request.url)?.[1];

export const geminiProfile: UpstreamProfile = {
  name: 'gemini',
  type: 'gemini',
  async start(options = {}) {
    const setup = await startUpstreamGateway('gemini', { model: options.model });
    return { gateway: setup.gateway, model: 'test-model', upstream: scriptedFake(setup.upstream), close: () => setup.close() };
  },
  upstream: {
    wire: geminiReader,
    passThrough: 'gemini',
    path: (streamed) => `/v1beta/models/${upstreamModel}:${streamed ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    // The gateway's own key, never the client's.
    authenticated: (request) => request.headers['x-goog-api-key'] === upstreamKey && request.headers.authorization === undefined,
    modelOf: modelInPath,
    ...geminiAnswers,
    count: { path: `/v1beta/models/${upstreamModel}:countTokens`, reply: (total) => ({ fake: { json: { totalTokens: total } } }) },
  },
};
