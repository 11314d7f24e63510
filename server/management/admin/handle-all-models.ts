import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { renderModel } from '../../protocols/openai-models/render-model.js';

/** `GET /admin/v1/models`: every configured model, for the console's admin view. */
export function createAllModelsHandlers(registry: ModelRegistry): Pick<OperationHandlers, 'listAllModels'> {
  return adminOnly<Pick<OperationHandlers, 'listAllModels'>>({
    listAllModels(_req, res) {
      res.json({ object: 'list', data: registry.all().map(renderModel) });
    },
  });
}
