import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelCallDependencies } from '../../core/model-call.js';
import { embedForRequest } from '../../http/embed-for-request.js';
import { convertEmbeddingRequest } from './convert-embedding-request.js';
import { renderEmbeddings } from './render-embeddings.js';

/** `POST /v1/embeddings`: one vector per input over whichever deployment the router picks; metered as input tokens. */
export function createEmbeddingHandler(deps: ModelCallDependencies): OperationHandler<'createEmbedding'> {
  return async (req, res, context) => {
    const { result } = await embedForRequest(deps, convertEmbeddingRequest(req.body), res, context);
    res.json(renderEmbeddings(result, req.body.model, req.body.encoding_format ?? 'float'));
  };
}
