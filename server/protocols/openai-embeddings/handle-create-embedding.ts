import type { OperationHandler, SuccessBody } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { embeddingsOperation } from '../../core/embeddings-operation.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import { routeCall } from '../../core/route-call.js';
import { convertEmbeddingRequest } from './convert-embedding-request.js';
import { renderEmbeddings } from './render-embeddings.js';

/** `POST /v1/embeddings`: one vector per input over whichever deployment the router picks; metered as input tokens. */
export function createEmbeddingHandler(deps: RoutedCallDependencies): OperationHandler<'createEmbedding'> {
  return async (req, res, context) => {
    const operation = embeddingsOperation(convertEmbeddingRequest(req.body), (result): SuccessBody<'createEmbedding'> =>
      renderEmbeddings(result, req.body.model, req.body.encoding_format ?? 'float'),
    );
    await context.emit(await routeCall(deps, operation, context, principalOf(context).access, context.work.signal));
  };
}
