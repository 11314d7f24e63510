import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { protocolFamilyForRequest } from '../../http/protocol-family.js';
import { renderGeminiModel, renderGeminiModelPage } from '../gemini/render-gemini-model.js';
import { renderAnthropicModel, renderAnthropicModelPage } from './render-anthropic-model.js';
import { renderModel } from './render-model.js';

/** Express 5 leaves query values as strings (the validator only checks them). */
type ModelsQuery = { limit?: string; after_id?: string; before_id?: string; pageSize?: string; pageToken?: string };

/** `GET /v1/models`, in the shape of the SDK that asks (see http/protocol-family.ts). */
export function createListModelsHandler(registry: ModelRegistry): OperationHandler<'listModels'> {
  return (req, res) => {
    const models = registry.list(principalOf(res).access);
    const query = req.query as ModelsQuery;
    switch (protocolFamilyForRequest(req)) {
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

/** `GET /v1/models/{model}`; the ID may contain `/` (see http/model-path.ts). */
export function createRetrieveModelHandler(registry: ModelRegistry): OperationHandler<'retrieveModel'> {
  return (req, res) => {
    const model = registry.resolve(req.params.model, principalOf(res).access);
    const family = protocolFamilyForRequest(req);
    res.json(family === 'anthropic' ? renderAnthropicModel(model) : family === 'gemini' ? renderGeminiModel(model) : renderModel(model));
  };
}
