import type { ModelRequest } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { CallContext } from '../provider.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { convertRequestToAnthropic } from './convert-request.js';

/**
 * Anthropic's own count of a request's input tokens (https://docs.anthropic.com/en/api/messages-count-tokens).
 * The request is converted as for a call, and only the fields the counting endpoint takes are sent: it
 * refuses the others (`max_tokens`, `stream`, sampling settings) as unknown.
 *
 * @example
 * const inputTokens = await countAnthropicTokens(client, 'anthropic', request, { upstreamModel: 'claude-sonnet-4-5', signal });
 */
export async function countAnthropicTokens(client: UpstreamClient, providerId: string, request: ModelRequest, context: CallContext): Promise<number> {
  const { model, messages, system, tools, tool_choice, thinking } = convertRequestToAnthropic(request, context.upstreamModel);
  const reply = await client.postJson('/v1/messages/count_tokens', { model, messages, system, tools, tool_choice, thinking }, context.signal);
  const json = await client.readJson(reply, context.signal);
  const count = json.input_tokens;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    throw new GatewayError('upstream', `The upstream provider '${providerId}' sent a token count that is not a number.`, {
      upstream: { providerId, status: reply.status },
    });
  }
  return count;
}
