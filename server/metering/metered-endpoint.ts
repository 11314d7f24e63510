import type { Request } from 'express';
import { splitModelPath } from '../http/model-path.js';

/** What the ledger calls a request's protocol. */
export type MeteredProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'openai-images';

export interface MeteredEndpoint {
  protocol: MeteredProtocol;
  /** `POST /v1/chat/completions`, `POST /v1beta/models/{model}:streamGenerateContent`, … */
  endpoint: string;
  /** The model the client named, as sent (undefined when it named none, e.g. an image request without `model`). */
  requestedModel?: string;
  /**
   * Whether the request consumes tokens. Counting tokens (`count_tokens`, `:countTokens`) generates none:
   * it is a ledger row and a request against `requests_per_minute`, with no tokens and no cost.
   */
  consumesTokens: boolean;
}

/**
 * Whether a request is a model request, metered (limits, usage ledger) on every surface alike. Decided
 * from the method and path, before any handler runs, so no endpoint can be served without being counted.
 */
export function meteredEndpoint(req: Request): MeteredEndpoint | undefined {
  if (req.method !== 'POST') return undefined;
  const bodyModel = typeof req.body?.model === 'string' ? (req.body.model as string) : undefined;
  switch (req.path) {
    case '/v1/chat/completions':
      return { protocol: 'openai-chat', endpoint: 'POST /v1/chat/completions', requestedModel: bodyModel, consumesTokens: true };
    case '/v1/responses':
      return { protocol: 'openai-responses', endpoint: 'POST /v1/responses', requestedModel: bodyModel, consumesTokens: true };
    case '/v1/messages':
    case '/v1/messages/count_tokens':
      return { protocol: 'anthropic-messages', endpoint: `POST ${req.path}`, requestedModel: bodyModel, consumesTokens: req.path === '/v1/messages' };
    case '/v1/images/generations':
    case '/v1/images/edits':
      return { protocol: 'openai-images', endpoint: `POST ${req.path}`, requestedModel: bodyModel, consumesTokens: true };
  }
  const gemini = splitModelPath(req.path);
  if (!gemini?.action) return undefined;
  return {
    protocol: 'gemini',
    endpoint: `POST /${gemini.version}/models/{model}:${gemini.action}`,
    requestedModel: gemini.model,
    consumesTokens: gemini.action !== 'countTokens',
  };
}
