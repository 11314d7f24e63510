import type { EmbeddingRequest, EmbeddingResult } from './embedding-types.js';
import { embeddingUsage } from './embedding-usage.js';
import { GatewayError } from './gateway-error.js';
import type { RoutedOperation } from './route-call.js';

/**
 * Embeddings, for either embeddings protocol, as a routed call (route-call.ts): the caller must be allowed
 * to embed with the model and the model must be able to; each attempt asks the deployment's provider, so a
 * refusal is retried or falls back like a model call's. `render` writes the vectors in the client's
 * protocol, as its operation's response schema (`Body`); embeddings do not stream. The answer's usage is
 * its input tokens. Errors name the client's model field `model`.
 *
 * @example
 * await context.emit(await routeCall(deps, embeddingsOperation(request, renderVectors), context, access, context.work.signal));
 */
export function embeddingsOperation<Body>(request: EmbeddingRequest, render: (result: EmbeddingResult) => Body): RoutedOperation<EmbeddingResult, Body, never> {
  /** The model the client named, once resolved: errors name it even when a fallback is tried. */
  let named = request.model;
  return {
    admit: (registry, access) => {
      const model = registry.resolve(request.model, access);
      named = model.id;
      access.assertCapability('embeddings', 'model');
      if (!model.capabilities.includes('embeddings')) {
        const able = registry.list(access).filter((candidate) => candidate.capabilities.includes('embeddings')).map((candidate) => candidate.id);
        const hint = able.length > 0 ? ` Models that can: ${able.join(', ')}.` : '';
        throw new GatewayError('invalid_request', `The model '${model.id}' cannot embed text.${hint}`, { param: 'model', code: 'unsupported_model' });
      }
      return model;
    },
    attempt: async (target, signal) => {
      const embeddings = target.deployment.provider.embeddings;
      if (!embeddings) {
        const provider = target.deployment.provider;
        throw new GatewayError('invalid_request', `The model '${named}' is served by a ${provider.type} upstream ('${provider.id}'), which cannot embed text.`, {
          param: 'model',
          code: 'unsupported_model',
        });
      }
      return embeddings.embed({ ...request, model: target.model.id }, { upstreamModel: target.deployment.upstreamModel, signal });
    },
    answer: (result, target) => ({ target, droppedParams: [], kind: 'json', body: () => render(result), usage: embeddingUsage(result) }),
  };
}
