import type { AccessPolicy } from '../../access/access-policy.js';
import type { ModelRegistry, RegisteredModel } from '../../core/model-registry.js';
import { checkImageParams, type ImageParams, type ImageResponseFormat } from './check-image-params.js';
import { resolveImageModel } from './resolve-image-model.js';

/**
 * The checks every image request passes, in one order for both endpoints: the model (404, 403, or 400 when
 * it cannot do the job), what the model takes (400), then what the key may ask for (403). The size it
 * answers is the one to send upstream: the request's own, or the one the key's `image_sizes` imposes.
 */
export function admitImageRequest(
  registry: ModelRegistry,
  access: AccessPolicy,
  capability: 'image_generation' | 'image_edit',
  modelId: string | undefined,
  params: ImageParams,
): { model: RegisteredModel; n: number; size?: string; responseFormat: ImageResponseFormat } {
  const model = resolveImageModel(registry, modelId, capability, access);
  const { n, responseFormat } = checkImageParams(model, params);
  const { size } = access.assertImageRequest(capability, { n, size: params.size ?? undefined, modelId: model.id, modelSizes: model.images.sizes });
  return { model, n, size, responseFormat };
}
