import type { ModelCapability } from '../config/config-schema.js';
import { GatewayError } from './gateway-error.js';
import type { RegisteredModel } from './model-registry.js';
import type { ModelRequest } from './internal-representation.js';

/** Request features a model may lack that can be left out without changing what the client asked. */
export type DroppableFeature = 'tools' | 'json_schema' | 'reasoning';

export interface GatedRequest {
  request: ModelRequest;
  /** What was left out, for the `x-gateway-dropped-params` header. */
  dropped: DroppableFeature[];
}

/**
 * Fits a request to what the model can do. A model without `chat` (an image model) is refused. Tools, a JSON schema or reasoning that the model's
 * capabilities lack are dropped (and reported), or refused with 400 when the model says
 * `on_unsupported: reject`. Image input to a model without `vision`, and streaming from a model that
 * cannot stream, are always refused: dropping them would answer a different question.
 *
 * `params` names each feature's request field in the client's protocol, so errors name what the client sent.
 */
export function gateCapabilities(
  model: RegisteredModel,
  request: ModelRequest,
  options: { stream: boolean; params: Record<DroppableFeature | 'stream' | 'images', string> },
): GatedRequest {
  const lacks = (capability: ModelCapability) => !model.capabilities.includes(capability);
  const refuse = (param: string, what: string) =>
    new GatewayError('invalid_request', `The model '${model.id}' does not support ${what}.`, { param, code: 'unsupported_parameter' });

  if (lacks('chat')) {
    throw new GatewayError('invalid_request', `The model '${model.id}' is not a chat model; it cannot answer this endpoint.`, {
      param: 'model',
      code: 'unsupported_model',
    });
  }
  if (options.stream && lacks('streaming')) throw refuse(options.params.stream, 'streaming');
  const hasImage = request.messages.some((message) => message.content.some((part) => part.type === 'image'));
  if (hasImage && lacks('vision')) throw refuse(options.params.images, 'image input');

  const unsupported: Array<{ feature: DroppableFeature; what: string }> = [];
  if (request.tools.length > 0 && lacks('tools')) unsupported.push({ feature: 'tools', what: 'tools' });
  if (request.responseFormat.type === 'json_schema' && lacks('json_schema')) {
    unsupported.push({ feature: 'json_schema', what: 'structured output (json_schema)' });
  }
  if (request.reasoning && lacks('reasoning')) unsupported.push({ feature: 'reasoning', what: 'reasoning' });
  if (unsupported.length === 0) return { request, dropped: [] };
  if (model.onUnsupported === 'reject') throw refuse(options.params[unsupported[0]!.feature], unsupported[0]!.what);

  const gated: ModelRequest = { ...request };
  for (const { feature } of unsupported) {
    switch (feature) {
      case 'tools':
        gated.tools = [];
        gated.toolChoice = { type: 'auto' };
        gated.parallelToolCalls = undefined;
        break;
      case 'json_schema':
        gated.responseFormat = { type: 'text' };
        break;
      case 'reasoning':
        gated.reasoning = undefined;
        break;
    }
  }
  return { request: gated, dropped: unsupported.map(({ feature }) => feature) };
}
