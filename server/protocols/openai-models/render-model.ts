import type { components } from '../../../generated/api.js';
import type { RegisteredModel } from '../../core/model-registry.js';

type Model = components['schemas']['Model'];

/** A registered model in OpenAI's model-object shape, plus our `capabilities` extension. */
export function renderModel(model: RegisteredModel): Model {
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: model.ownedBy,
    capabilities: [...model.capabilities],
  };
}
