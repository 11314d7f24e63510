import type { Response } from 'express';
import { principalOf } from '../access/principal-of.js';
import { callEmbeddings, type EmbeddingAnswer } from '../core/call-embeddings.js';
import type { EmbeddingRequest } from '../core/embedding-types.js';
import { embeddingUsage } from '../core/embedding-usage.js';
import type { ModelCallDependencies } from '../core/model-call.js';
import type { RequestContext } from '../core/request-context.js';
import { describeRoute } from './describe-route.js';
import { requestAbortSignal } from './request-abort-signal.js';

/**
 * Embeds for a request of either embeddings protocol, and leaves the route and the input tokens where the
 * response headers, metering and the ledger read them; the caller renders the vectors in its protocol.
 */
export async function embedForRequest(deps: ModelCallDependencies, request: EmbeddingRequest, res: Response, context: RequestContext): Promise<EmbeddingAnswer> {
  const answer = await callEmbeddings(deps, request, principalOf(context).access, requestAbortSignal(res));
  describeRoute(res, context, answer.target);
  context.usage = embeddingUsage(answer.result);
  return answer;
}
