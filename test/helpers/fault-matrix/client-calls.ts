/** The client protocols the gateway serves, as the requests each one's SDK sends for a one-line prompt. */
export type ClientProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

export interface ClientCall {
  protocol: ClientProtocol;
  stream: boolean;
  path: string;
  headers(apiKey: string): Record<string, string>;
  body: Record<string, unknown>;
}

const prompt = 'Hello';

/**
 * A request of each protocol for `model`, streaming or not, with the protocol's own auth header.
 *
 * @example
 * const call = clientCalls.gemini('test-model', true);
 * await fetch(origin + call.path, { method: 'POST', headers: call.headers(key), body: JSON.stringify(call.body) });
 */
export const clientCalls: Record<ClientProtocol, (model: string, stream: boolean) => ClientCall> = {
  'openai-chat': (model, stream) => ({
    protocol: 'openai-chat',
    stream,
    path: '/v1/chat/completions',
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    body: { model, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) },
  }),
  'openai-responses': (model, stream) => ({
    protocol: 'openai-responses',
    stream,
    path: '/v1/responses',
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    body: { model, input: prompt, ...(stream ? { stream: true } : {}) },
  }),
  'anthropic-messages': (model, stream) => ({
    protocol: 'anthropic-messages',
    stream,
    path: '/v1/messages',
    headers: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }),
    body: { model, max_tokens: 64, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream: true } : {}) },
  }),
  gemini: (model, stream) => ({
    protocol: 'gemini',
    stream,
    path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
  }),
};
