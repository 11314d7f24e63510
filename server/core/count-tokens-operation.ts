import { countInputTokens, type InputTokenCount } from './count-input-tokens.js';
import { droppedParamNames } from './dropped-params.js';
import { gateCapabilities, type DroppableFeature } from './gate-capabilities.js';
import { admitModelCall, type ModelCallRequest } from './model-call.js';
import type { RoutedOperation } from './route-call.js';
import type { ModelRequest } from './internal-representation.js';

/**
 * Counting a generation's input tokens, as a routed call (route-call.ts): admitted like the generation
 * `call` reads (admitModelCall), so nothing a generation may not send can be counted; routed like one, so a
 * deployment that fails is retried and fallbacks are used; counted as it would be sent to the deployment
 * (features the model lacks left out, and named from the client's `body`), by the upstream where it counts
 * itself, else estimated (count-input-tokens.ts). `render` writes the count in the client's protocol, as its
 * operation's response schema (`Body`); a count does not stream.
 */
export function countTokensOperation<Body>(
  call: ModelCallRequest,
  body: Record<string, unknown>,
  render: (count: InputTokenCount) => Body,
): RoutedOperation<{ count: InputTokenCount; dropped: DroppableFeature[] }, Body, never> {
  /** The request as read once admitted (its stored history in hand), gated anew for each deployment. */
  let admitted: ModelRequest;
  return {
    admit: async (registry, access) => {
      const model = await admitModelCall(registry, call, access);
      admitted = call.request('inspect');
      return model;
    },
    attempt: async (target, signal) => {
      const { request, dropped } = gateCapabilities(target.model, admitted, { stream: false, params: call.params });
      return { dropped, count: await countInputTokens(target, request, signal) };
    },
    answer: ({ count, dropped }, target) => ({
      target,
      droppedParams: droppedParamNames(call.droppedFields, body, dropped),
      kind: 'json',
      body: () => render(count),
      usage: undefined,
    }),
  };
}
