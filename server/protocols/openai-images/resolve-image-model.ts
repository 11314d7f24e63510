import type { AccessPolicy } from '../../access/access-policy.js';
import type { ModelCapability } from '../../config/config-schema.js';
import type { ModelRegistry, RegisteredModel } from '../../core/model-registry.js';
import { GatewayError } from '../../core/gateway-error.js';

type ImageCapability = Extract<ModelCapability, 'image_generation' | 'image_edit'>;

const doing: Record<ImageCapability, string> = { image_generation: 'generate images', image_edit: 'edit images' };

/**
 * The model an image request names, or without `model` the first configured model that can do the job
 * (OpenAI defaults to one too). A model that cannot is a 400 that lists the ones that can.
 */
export function resolveImageModel(registry: ModelRegistry, id: string | undefined, capability: ImageCapability, access: AccessPolicy): RegisteredModel {
  if (id === undefined) {
    const fallback = registry.firstWith(capability, access);
    if (fallback) return fallback;
    throw new GatewayError('invalid_request', `No configured model can ${doing[capability]}.`, { param: 'model', code: 'model_not_found' });
  }
  const model = registry.resolve(id, access);
  if (model.capabilities.includes(capability)) return model;
  const able = registry.list(access).filter((candidate) => candidate.capabilities.includes(capability)).map((candidate) => candidate.id);
  const hint = able.length > 0 ? ` Models that can: ${able.join(', ')}.` : '';
  throw new GatewayError('invalid_request', `The model '${model.id}' cannot ${doing[capability]}.${hint}`, { param: 'model', code: 'unsupported_model' });
}
