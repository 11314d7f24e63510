import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { callEmbeddings } from '../../core/call-embeddings.js';
import type { ModelCallDependencies } from '../../core/model-call.js';
import { describeRoute } from '../../http/describe-route.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { convertEmbeddingRequest } from './convert-embedding-request.js';
import { renderEmbeddings } from './render-embeddings.js';
import { embeddingUsage } from '../../core/embedding-usage.js';

/** `POST /v1/embeddings`: one vector per input over whichever deployment the router picks; metered as input tokens. */
export function createEmbeddingHandler(deps: ModelCallDependencies): OperationHandler<'createEmbedding'> {
  return async (req, res, context) => {
    const { result, target } = await callEmbeddings(deps, convertEmbeddingRequest(req.body), principalOf(context).access, requestAbortSignal(res));
    describeRoute(res, context, target);
    context.usage = embeddingUsage(result);
    res.json(renderEmbeddings(result, req.body.model, req.body.encoding_format ?? 'float'));
  };
}
