import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { renderModel } from './render-model.js';

/** `GET /v1/models`. */
export function createListModelsHandler(registry: ModelRegistry): OperationHandler<'listModels'> {
  return (_req, res) => {
    res.json({ object: 'list', data: registry.list().map(renderModel) });
  };
}

/** `GET /v1/models/{model}`; the ID may contain `/` (see http/model-path.ts). */
export function createRetrieveModelHandler(registry: ModelRegistry): OperationHandler<'retrieveModel'> {
  return (req, res) => {
    res.json(renderModel(registry.resolve(req.params.model)));
  };
}
