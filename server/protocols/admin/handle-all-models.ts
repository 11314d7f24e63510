import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { renderModel } from '../openai-models/render-model.js';

/** `GET /admin/v1/models`: every configured model, for the console's admin view. */
export function createListAllModelsHandler(registry: ModelRegistry): OperationHandler<'listAllModels'> {
  return (_req, res) => {
    res.json({ object: 'list', data: registry.all().map(renderModel) });
  };
}
