import type { Response } from 'express';
import type { SuccessBody, TypedRequest } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { embeddingsOperation } from '../../core/embeddings-operation.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import type { RequestContext } from '../../core/request-context.js';
import { routeCall } from '../../core/route-call.js';
import { convertEmbedRequests } from './convert-embed-request.js';

/** One handler serves an action under both API versions and both ways of naming the model (same request and answer). */
type Handler<O extends 'embedContent' | 'batchEmbedContents'> = (req: TypedRequest<O>, res: Response<SuccessBody<O>>, context: RequestContext) => Promise<void>;

/** `POST /{v1beta,v1}/models/{model}:embedContent`: one content's vector, `{embedding: {values}}`. */
export function createEmbedContentHandler(deps: RoutedCallDependencies): Handler<'embedContent'> {
  return async (req, res, context) => {
    const operation = embeddingsOperation(convertEmbedRequests([req.body], req.params.model, false), (result): SuccessBody<'embedContent'> => ({
      embedding: { values: result.vectors[0]! },
    }));
    await context.emit(await routeCall(deps, operation, context, principalOf(context).access, context.work.signal));
  };
}

/** `POST /{v1beta,v1}/models/{model}:batchEmbedContents`: one vector per request, in order, `{embeddings: [{values}]}`. */
export function createBatchEmbedContentsHandler(deps: RoutedCallDependencies): Handler<'batchEmbedContents'> {
  return async (req, res, context) => {
    const operation = embeddingsOperation(convertEmbedRequests(req.body.requests, req.params.model, true), (result): SuccessBody<'batchEmbedContents'> => ({
      embeddings: result.vectors.map((values) => ({ values })),
    }));
    await context.emit(await routeCall(deps, operation, context, principalOf(context).access, context.work.signal));
  };
}
