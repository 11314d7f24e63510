import { droppedParamNames, withoutDroppedParams } from '../../core/dropped-params.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { RouteTarget } from '../../core/router.js';
import type { ModelRequest } from '../../core/types.js';
import type { ForwardedResponseEvent, ResponsesPassThrough } from '../../providers/provider.js';
import type { StoredConversation } from '../../store/response-store.js';
import { responsesDroppedFields, responsesFeatureParams } from './responses-params.js';
import { conversationForUpstream, inputForUpstream, type ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/** A forwarded answer that has begun upstream but of which the client has seen nothing yet. */
export interface ForwardedResponse {
  answer:
    | { kind: 'json'; response: Record<string, unknown> }
    | { kind: 'stream'; events: AsyncIterable<ForwardedResponseEvent>; deliveredCharacters(): number };
  droppedParams: string[];
  /** Whether the upstream keeps this response too (it was asked to store it), so a next turn there can build on it. */
  upstreamStores: boolean;
}

export interface ForwardResponseInput {
  body: ResponsesCreateRequest;
  /** The request in the internal representation, for the capability gate. */
  request: ModelRequest;
  /** The stored conversation `previous_response_id` names. */
  previous?: StoredConversation;
  /** Resolves `item_reference`s among the items the gateway stored for this owner. */
  lookup: ItemLookup;
  signal: AbortSignal;
}

/**
 * One routing attempt on an `api: responses` upstream. The client's body goes through with the least
 * rewriting. `previous_response_id` becomes the upstream's own ID for that response when the upstream
 * holds it (it answered and stored it), and gives way to the gateway's copy of the conversation otherwise
 * (the previous turn ran elsewhere, or the upstream was asked not to store it).
 */
export async function startForwardedResponse(
  target: RouteTarget,
  passThrough: ResponsesPassThrough,
  input: ForwardResponseInput,
): Promise<ForwardedResponse> {
  const { body: clientBody, previous } = input;
  const { dropped } = gateCapabilities(target.model, input.request, { stream: clientBody.stream === true, params: responsesFeatureParams });
  const { body } = withoutDroppedParams(responsesDroppedFields, clientBody as Record<string, unknown>, dropped);
  const held = previous?.responses.at(-1)?.upstream;
  if (held && held.providerId === target.deployment.provider.id) {
    body.previous_response_id = held.responseId;
    body.input = inputForUpstream(clientBody.input, input.lookup);
  } else if (previous) {
    body.input = conversationForUpstream(previous.items, clientBody.input, input.lookup);
    delete body.previous_response_id;
  } else {
    body.input = inputForUpstream(clientBody.input, input.lookup);
  }

  const forwarded = await passThrough.forward(body, { upstreamModel: target.deployment.upstreamModel, signal: input.signal });
  const common = {
    droppedParams: droppedParamNames(responsesDroppedFields, clientBody as Record<string, unknown>, dropped),
    upstreamStores: clientBody.store !== false,
  };
  if (forwarded.kind === 'json') return { ...common, answer: { kind: 'json', response: forwarded.body } };
  return { ...common, answer: { kind: 'stream', events: await prefetchFirstEvent(forwarded.events), deliveredCharacters: forwarded.deliveredCharacters } };
}
