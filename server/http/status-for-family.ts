import type { GatewayError } from '../core/gateway-error.js';
import type { ProtocolFamily } from '../../generated/operations.js';

/**
 * The HTTP status of an error in the protocol family's terms. Only Anthropic differs from the error's
 * own status: it answers "overloaded" with 529 `overloaded_error` (https://docs.anthropic.com/en/api/errors),
 * which its SDKs and Claude Code know to retry; the other families keep 503.
 */
export function statusForFamily(family: ProtocolFamily, error: GatewayError): number {
  if (family === 'anthropic' && error.kind === 'overloaded') return 529;
  return error.status;
}
