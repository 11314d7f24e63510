import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler, ProtocolFamily } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { ModelListQuery, ModelListRenderer } from '../protocol-definition.js';

/** Per family, how its SDK's model list looks (protocols/registry.ts derives it from the client protocols). */
export type ModelListRenderers = Readonly<Record<'openai' | 'anthropic' | 'gemini', ModelListRenderer>>;

/** The family whose model list a request gets: the admin API's is OpenAI's. */
const listFamily = (family: ProtocolFamily) => (family === 'admin' ? 'openai' : family);

/** `GET /v1/models`, in the shape of the SDK that asks (the request's family: http/front-door/family-of-request.ts). */
export function createListModelsHandler(registry: ModelRegistry, renderers: ModelListRenderers): OperationHandler<'listModels'> {
  return (req, res, context) => {
    const models = registry.list(principalOf(context).access);
    res.json(renderers[listFamily(context.family)].list(models, req.query as ModelListQuery));
  };
}

/** `GET /v1/models/{model}`; the ID may contain `/` (`x-allow-slashes`). */
export function createRetrieveModelHandler(registry: ModelRegistry, renderers: ModelListRenderers): OperationHandler<'retrieveModel'> {
  return (req, res, context) => {
    const model = registry.resolve(req.params.model, principalOf(context).access);
    res.json(renderers[listFamily(context.family)].one(model));
  };
}
