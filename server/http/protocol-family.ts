import type { Request } from 'express';

/**
 * Which protocol's error shape and auth headers a path belongs to. Decided from the path alone because
 * errors can happen before any route matched (bad JSON, unknown path, missing key). A test checks that
 * this agrees with every operation's `x-protocol` in the spec.
 */
export type ProtocolFamily = 'openai' | 'anthropic' | 'gemini' | 'admin';

/**
 * A Gemini action on a model under `/v1` (the Gemini SDK with `apiVersion: 'v1'`). Only on model paths:
 * `GET /v1/responses/x:countTokens` asks OpenAI's route for the response with that ID.
 */
const geminiModelAction = /^\/v1\/models\/.+:(generateContent|streamGenerateContent|countTokens)$/;

export function protocolFamilyForPath(path: string): ProtocolFamily {
  if (path.startsWith('/admin/')) return 'admin';
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return 'anthropic';
  if (path === '/v1beta' || path.startsWith('/v1beta/') || geminiModelAction.test(path)) return 'gemini';
  return 'openai';
}

/** `GET /v1/models` and `/v1/models/{id}`: shared by OpenAI, Anthropic and Gemini (`apiVersion: 'v1'`) SDKs. */
const sharedModelsPath = /^\/v1\/models(\/.*)?$/;

/**
 * The family of a request: its path's, except on the model routes every SDK calls at the same path. There
 * the SDK gives itself away by how it authenticates: the Gemini SDK by `x-goog-api-key` or `?key=`, the
 * Anthropic SDK by `anthropic-version` (always sent) or `x-api-key`. Anything else is OpenAI's.
 */
export function protocolFamilyForRequest(req: Pick<Request, 'path' | 'headers' | 'url'>): ProtocolFamily {
  const family = protocolFamilyForPath(req.path);
  // Gemini actions (`/v1/models/…:generateContent`) are already told apart by the path.
  if (family !== 'openai' || !sharedModelsPath.test(req.path)) return family;
  if (req.headers['x-goog-api-key'] !== undefined || new URL(req.url, 'http://gateway').searchParams.has('key')) return 'gemini';
  if (req.headers['anthropic-version'] !== undefined || req.headers['x-api-key'] !== undefined) return 'anthropic';
  return 'openai';
}
