import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { renderGeminiModel, renderGeminiModelPage } from './render-gemini-model.js';

/** `GET /v1beta/models`, paged by `pageSize` (default 50) and `pageToken`. */
export function createListGeminiModelsHandler(registry: ModelRegistry): OperationHandler<'listGeminiModels'> {
  return (req, res, context) => {
    // Express 5 leaves query values as strings (the validator only checks them).
    const { pageSize, pageToken } = req.query as { pageSize?: string; pageToken?: string };
    res.json(renderGeminiModelPage(registry.list(principalOf(context).access), { pageSize: pageSize === undefined ? 50 : Number(pageSize), pageToken: pageToken || undefined }));
  };
}

/** `GET /v1beta/models/{model}`; the ID may contain `/` (`x-allow-slashes`). */
export function createGetGeminiModelHandler(registry: ModelRegistry): OperationHandler<'getGeminiModel'> {
  return (req, res, context) => {
    res.json(renderGeminiModel(registry.resolve(req.params.model, principalOf(context).access)));
  };
}
