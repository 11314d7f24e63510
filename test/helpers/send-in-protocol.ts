import type { UpstreamGateway } from './upstream-gateway.js';

/** The four client protocols that generate text. */
export type TextProtocol = 'chat' | 'responses' | 'messages' | 'gemini';

const routes: Record<TextProtocol, { path: string; headers(key: string): Record<string, string> }> = {
  chat: { path: '/v1/chat/completions', headers: (key) => ({ authorization: `Bearer ${key}` }) },
  responses: { path: '/v1/responses', headers: (key) => ({ authorization: `Bearer ${key}` }) },
  messages: { path: '/v1/messages', headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }) },
  gemini: { path: '/v1beta/models/test-model:generateContent', headers: (key) => ({ 'x-goog-api-key': key }) },
};

/**
 * Sends a raw body in a client protocol to the gateway's `test-model` (named in the body, or in the path
 * for Gemini), so a test controls every field and spelling; resolves with the status, the body's text and
 * the request ID (for the ledger row).
 *
 * @example
 * const { status } = await sendInProtocol(setup, key, 'gemini', { contents, generation_config: { candidate_count: 8 } });
 */
export async function sendInProtocol(
  setup: Pick<UpstreamGateway, 'gateway'>,
  key: string,
  protocol: TextProtocol,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; requestId: string }> {
  const route = routes[protocol];
  const model = protocol === 'gemini' ? {} : { model: 'test-model' };
  const response = await fetch(`${setup.gateway.origin}${route.path}`, {
    method: 'POST',
    headers: { ...route.headers(key), ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...model, ...body }),
  });
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') ?? '' };
}
