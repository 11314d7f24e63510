import { isStoreUnavailable } from '../store/store-unavailable.js';
import { GatewayError } from './gateway-error.js';

/**
 * Turns anything thrown during a model call into a GatewayError whose message is safe to show: our own
 * errors pass through, a database out of reach is a 503 to retry, anything else becomes a generic 500 (its
 * details go to the log, never to the client). The protocols render it in a stream's in-band error; the
 * http layer's toGatewayError (http/to-gateway-error.ts) adds the request's own errors (body, contract).
 */
export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (isStoreUnavailable(error)) return storeUnavailable(error);
  return new GatewayError('internal', 'Internal server error.', { cause: error });
}

/**
 * The database is restarting or out of reach: the request may work in a few seconds (requests that need
 * no store, such as model calls with a recently verified key, keep working meanwhile). 503 in every
 * family; Anthropic's turns it into 529 `overloaded_error` (status-for-family.ts), which its SDKs retry.
 */
function storeUnavailable(cause: unknown): GatewayError {
  return new GatewayError('overloaded', 'The gateway cannot reach its database right now; try again shortly.', {
    status: 503,
    code: 'store_unavailable',
    headers: { 'retry-after': String(storeRetryAfterSeconds) },
    cause,
  });
}

/** A database restart or failover usually takes seconds; clients that wait this long mostly find it back. */
const storeRetryAfterSeconds = 5;
