import { requestTimeoutMs, type SoakClients } from './soak-clients.js';
import type { RequestKind } from './request-kind.js';
import { soakPrompt } from './request-kind.js';
import { check } from './soak-check.js';
import { soakModels } from './soak-gateway-config.js';

/**
 * Clients that leave before the answer is over: what frees (or leaks) a stream's upstream call, timers
 * and sockets. The SDK kind stops reading as application code does (`break` out of the loop, which makes
 * the SDK abort its request); the raw kinds read the first body chunk and abort the fetch.
 */
export const disconnectKinds: RequestKind[] = [
  {
    name: `Disconnect mid-stream: OpenAI chat (raw) · ${soakModels.builtinChat}`,
    weight: 2,
    run: (clients) =>
      leaveAfterFirstChunk(clients, '/v1/chat/completions', { model: soakModels.builtinChat, stream: true, messages: [{ role: 'user', content: soakPrompt }] }),
  },
  {
    name: `Disconnect mid-stream: Anthropic SDK, break after 3 events · ${soakModels.upstreamChat}`,
    weight: 1,
    run: async ({ anthropic }) => {
      const stream = await anthropic.messages.create({
        model: soakModels.upstreamChat,
        max_tokens: 512,
        stream: true,
        messages: [{ role: 'user', content: soakPrompt }],
      });
      let events = 0;
      for await (const _event of stream) if (++events === 3) break;
      check(events === 3, `stream ended after ${events} events`);
    },
  },
  {
    name: `Disconnect mid-stream: Gemini alt=sse (raw) · ${soakModels.builtinChat}`,
    weight: 1,
    run: (clients) =>
      leaveAfterFirstChunk(clients, `/v1beta/models/${soakModels.builtinChat}:streamGenerateContent?alt=sse`, {
        contents: [{ role: 'user', parts: [{ text: soakPrompt }] }],
      }),
  },
  {
    name: `Disconnect mid-download: image URL · ${soakModels.upstreamImage}`,
    weight: 1,
    run: async (clients) => {
      const result = await clients.openai.images.generate({ model: soakModels.upstreamImage, prompt: 'A red kite', response_format: 'url' });
      const url = result.data?.[0]?.url;
      check(url, 'no url in the answer');
      await leaveAfterFirstChunk(clients, new URL(url).pathname, undefined);
    },
  },
];

/** POSTs `body` (GETs when there is none), checks for 200, reads one chunk of the body and aborts. */
async function leaveAfterFirstChunk({ origin, apiKey }: SoakClients, path: string, body: unknown): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), requestTimeoutMs);
  try {
    const response = await fetch(`${origin}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    check(response.status === 200 && response.body, `HTTP ${response.status}`);
    const first = await response.body.getReader().read();
    check(!first.done && first.value.length > 0, 'the body ended before its first chunk');
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

