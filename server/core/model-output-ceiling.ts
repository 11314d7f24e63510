import { namedCapOf, type OutputCapFields } from '../access/output-ceiling.js';
import { GatewayError } from './gateway-error.js';
import type { RegisteredModel } from './model-registry.js';

/**
 * A cap the client names above the model's `max_output_tokens` (its config's, else the price catalog's) is a
 * 400 in the protocol's own shape before anything is sent: the upstream would refuse it the same way
 * (Anthropic: "max_tokens: … > 64000, which is the maximum allowed"), after a round trip and a reservation.
 * Only the client's own cap is checked (a granted cap already stays within the limit: usage/metering/plan-reservation.ts);
 * a key's `max_output_tokens` the gateway writes for a request naming none is not, and reaches the upstream as written.
 *
 * @example
 * assertWithinModelOutput(model, call.protocol.outputCap, call.clientBody) // throws for max_tokens 100000 on a model whose max_output_tokens is 64000
 */
export function assertWithinModelOutput(model: RegisteredModel, fields: OutputCapFields | undefined, clientBody: unknown): void {
  if (model.maxOutputTokens === undefined || !fields) return;
  const named = namedCapOf(clientBody, fields);
  if (!named || named.value <= model.maxOutputTokens) return;
  throw new GatewayError('invalid_request', `${named.path} is ${named.value}, more than ${model.maxOutputTokens}, the most ${model.id} can generate.`, {
    param: named.path,
  });
}
