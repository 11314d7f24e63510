import { GatewayApiError } from '../../index.js';

/** What to tell people when the gateway cannot be reached at all (fetch rejects with a TypeError). */
export const unreachableMessage = `The gateway at ${location.origin} cannot be reached. Check your network connection and that the gateway is running, then try again.`;

/**
 * A sentence for an error banner: the gateway's own `error.message` when it sent one (it is written for
 * people), a clear line for network failures, and the error's text otherwise.
 */
export function describeError(error: unknown): string {
  if (error instanceof GatewayApiError) return gatewayMessage(error.body) ?? error.message;
  if (isAbort(error)) return 'The request was stopped.';
  if (error instanceof TypeError) return unreachableMessage;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** True for the rejection an AbortController causes, which is a user's choice rather than a failure. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

// The OpenAI, Anthropic and Gemini error shapes all nest `{ error: { message } }`.
function gatewayMessage(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim()) return body.trim();
  if (typeof body !== 'object' || body === null) return undefined;
  const details = (body as { error?: unknown }).error;
  const message = typeof details === 'object' && details !== null ? (details as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}
