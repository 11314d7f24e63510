import { readAnthropicError } from '../anthropic/read-error.js';
import { readGeminiError } from '../gemini/read-error.js';
import type { UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Vertex answers in Google's error shape, `{"error":{"code":404,"message":"…","status":"NOT_FOUND"}}`
 * (https://cloud.google.com/apis/design/errors); errors Claude itself raises on Vertex keep Anthropic's,
 * `{"type":"error","error":{"type":"…","message":"…"}}`. Both carry `error.message`; the type is whichever is given.
 */
export function readVertexError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  const google = readGeminiError(body);
  return google.type ? google : { ...google, ...readAnthropicError(body) };
}
