import type { IncomingMessage } from 'node:http';
import type { OperationRoute, ProtocolFamily } from '../../../generated/operations.js';

/**
 * The family of a request for an operation: the operation's own, except on the paths every SDK calls
 * (`x-protocol-from-client`: `GET /v1/models…`). There the SDK gives itself away by how it authenticates:
 * the Gemini SDK by `x-goog-api-key` or `?key=`, the Anthropic SDK by `anthropic-version` (always sent) or
 * `x-api-key`. Anything else is OpenAI's.
 */
export function familyOfRequest(route: OperationRoute, req: Pick<IncomingMessage, 'headers' | 'url'>): ProtocolFamily {
  if (!route.protocolFromClient) return route.protocol;
  if (req.headers['x-goog-api-key'] !== undefined || hasQueryParameter(req.url ?? '', 'key')) return 'gemini';
  if (req.headers['anthropic-version'] !== undefined || req.headers['x-api-key'] !== undefined) return 'anthropic';
  return 'openai';
}

function hasQueryParameter(url: string, name: string): boolean {
  const queryAt = url.indexOf('?');
  return queryAt !== -1 && new URLSearchParams(url.slice(queryAt + 1)).has(name);
}
