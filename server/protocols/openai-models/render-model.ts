import type { components } from '../../../generated/api.js';
import type { RegisteredModel } from '../../core/model-registry.js';

type Model = components['schemas']['Model'];

/**
 * A registered model in OpenAI's model-object shape, plus our extensions: `capabilities`, the configured
 * `pricing`, and `images` (the values an image model's requests may take). SDKs ignore fields they do not
 * know; the console and scripts read them.
 */
export function renderModel(model: RegisteredModel): Model {
  const makesImages = model.capabilities.includes('image_generation') || model.capabilities.includes('image_edit');
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: model.ownedBy,
    capabilities: [...model.capabilities],
    ...(model.pricing && { pricing: model.pricing }),
    ...(makesImages && { images: model.images }),
  };
}
