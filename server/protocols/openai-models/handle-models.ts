import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { renderGeminiModel, renderGeminiModelPage } from '../gemini/render-gemini-model.js';
import { renderAnthropicModel, renderAnthropicModelPage } from './render-anthropic-model.js';
import { renderModel } from './render-model.js';

/** Express 5 leaves query values as strings (the validator only checks them). */
type ModelsQuery = { limit?: string; after_id?: string; before_id?: string; pageSize?: string; pageToken?: string };

/** `GET /v1/models`, in the shape of the SDK that asks (the request's family: http/front-door/family-of-request.ts). */
export function createListModelsHandler(registry: ModelRegistry): OperationHandler<'listModels'> {
  return (req, res, context) => {
    const models = registry.list(principalOf(context).access);
    const query = req.query as ModelsQuery;
    switch (context.family) {
      case 'anthropic':
        // Anthropic clients can only chat, and Anthropic's own list holds chat models only.
        res.json(renderAnthropicModelPage(models.filter((model) => model.capabilities.includes('chat')), { limit: Number(query.limit ?? 20), afterId: query.after_id, beforeId: query.before_id }));
        return;
      case 'gemini':
        res.json(renderGeminiModelPage(models, { pageSize: Number(query.pageSize ?? 50), pageToken: query.pageToken || undefined }));
        return;
      default:
        res.json({ object: 'list', data: models.map(renderModel) });
    }
  };
}

/** `GET /v1/models/{model}`; the ID may contain `/` (`x-allow-slashes`). */
export function createRetrieveModelHandler(registry: ModelRegistry): OperationHandler<'retrieveModel'> {
  return (req, res, context) => {
    const model = registry.resolve(req.params.model, principalOf(context).access);
    const family = context.family;
    res.json(family === 'anthropic' ? renderAnthropicModel(model) : family === 'gemini' ? renderGeminiModel(model) : renderModel(model));
  };
}
