import { requestTimeoutMs } from './soak-clients.js';
import type { RequestKind } from './request-kind.js';
import { expectResponseStatus, expectStatus } from './soak-check.js';
import { soakModels } from './soak-gateway-config.js';

/**
 * Requests the gateway must refuse, and the one read-only listing: errors take other paths through the
 * middleware (validator, error renderer per protocol family) than answers do, and leak there as easily.
 * Each kind succeeds when the refusal has the expected status.
 */
export const refusalKinds: RequestKind[] = [
  {
    name: 'Models list (OpenAI SDK)',
    weight: 2,
    run: async ({ openai }) => {
      const page = await openai.models.list();
      if (!page.data.some((model) => model.id === soakModels.upstreamChat)) throw new Error(`${soakModels.upstreamChat} not listed`);
    },
  },
  {
    name: 'Error 404: unknown model (OpenAI SDK chat)',
    weight: 1,
    run: ({ openai }) => expectStatus(404, () => openai.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })),
  },
  {
    name: 'Error 404: unknown model (Anthropic SDK)',
    weight: 1,
    run: ({ anthropic }) =>
      expectStatus(404, () => anthropic.messages.create({ model: 'no-such-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })),
  },
  {
    name: 'Error 400: chat body without messages (raw)',
    weight: 1,
    run: async ({ origin, apiKey }) => {
      const response = await fetch(`${origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: soakModels.upstreamChat }),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      await expectResponseStatus(response, 400);
    },
  },
  {
    name: 'Error 401: wrong key (raw Gemini)',
    weight: 1,
    run: async ({ origin }) => {
      const response = await fetch(`${origin}/v1beta/models/${soakModels.upstreamChat}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': 'wrong-key', 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      await expectResponseStatus(response, 401);
    },
  },
];
