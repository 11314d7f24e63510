import { GatewayError } from './gateway-error.js';

/**
 * What the router does after an attempt failed:
 * - `retry`: the upstream may answer next time (no answer at all, 408, 409, 429, 5xx) — back off, try again;
 * - `next`: this deployment cannot serve (our credentials refused, model unknown there) — try another,
 *   never the same one;
 * - `stop`: the request itself is at fault (400, 413, 422) or the error is ours — no other deployment
 *   would answer differently, so the client gets it now.
 */
export type FailureVerdict = 'retry' | 'next' | 'stop';

export function classifyFailure(error: unknown): FailureVerdict {
  if (!(error instanceof GatewayError) || !error.upstream) return 'stop';
  const status = error.upstream.status;
  if (status === undefined) return 'retry';
  if (status === 408 || status === 409 || status === 429 || status >= 500) return 'retry';
  if (status === 401 || status === 403 || status === 404) return 'next';
  return 'stop';
}
