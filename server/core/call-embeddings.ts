import type { AccessPolicy } from '../access/access-policy.js';
import type { EmbeddingRequest, EmbeddingResult } from './embedding-types.js';
import { GatewayError } from './gateway-error.js';
import type { ModelCallDependencies } from './model-call.js';
import type { RouteTarget } from './router.js';

/** An embeddings answer and the deployment that gave it (for the route headers and the ledger). */
export interface EmbeddingAnswer {
  result: EmbeddingResult;
  target: RouteTarget;
}

/**
 * The one embeddings flow of every client protocol: resolve the model, check that the caller may embed
 * with it and that it can, then route; each attempt asks the deployment's provider, so a refusal is
 * retried or falls back like a model call's. `param` names the client's model field in errors.
 *
 * @example
 * const { result, target } = await callEmbeddings(deps, request, access, signal);
 */
export async function callEmbeddings(
  deps: ModelCallDependencies,
  request: EmbeddingRequest,
  access: AccessPolicy,
  signal: AbortSignal,
): Promise<EmbeddingAnswer> {
  const model = deps.registry.resolve(request.model, access);
  access.assertCapability('embeddings', 'model');
  if (!model.capabilities.includes('embeddings')) {
    const able = deps.registry.list(access).filter((candidate) => candidate.capabilities.includes('embeddings')).map((candidate) => candidate.id);
    const hint = able.length > 0 ? ` Models that can: ${able.join(', ')}.` : '';
    throw new GatewayError('invalid_request', `The model '${model.id}' cannot embed text.${hint}`, { param: 'model', code: 'unsupported_model' });
  }
  return deps.router.run(
    model,
    async (target) => {
      const embeddings = target.deployment.provider.embeddings;
      if (!embeddings) {
        const provider = target.deployment.provider;
        throw new GatewayError('invalid_request', `The model '${model.id}' is served by a ${provider.type} upstream ('${provider.id}'), which cannot embed text.`, {
          param: 'model',
          code: 'unsupported_model',
        });
      }
      const result = await embeddings.embed({ ...request, model: target.model.id }, { upstreamModel: target.deployment.upstreamModel, signal });
      return { result, target };
    },
    signal,
    access,
  );
}
