import type { Request } from 'express';
import type { OperationHandlers } from '../../../generated/operations.js';
import { newBatchId, type BatchService } from '../../batches/batch-service.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RequestContext } from '../../core/request-context.js';
import { principalOf } from '../../access/principal-of.js';
import { writeWithBackpressure } from '../../streaming/streamed-response.js';
import { imageBaseUrl } from '../openai-images/image-base-url.js';
import { renderMessageBatch, renderResultLine } from './render-message-batch.js';

type BatchOperations =
  | 'createMessageBatch'
  | 'listMessageBatches'
  | 'retrieveMessageBatch'
  | 'cancelMessageBatch'
  | 'deleteMessageBatch'
  | 'getMessageBatchResults';

/** Results read from the store per chunk (one write each). */
const resultChunk = 500;

/**
 * Anthropic's Message Batches, run by the gateway (server/batches/): a batch belongs to the account whose
 * key made it (every other account is told it does not exist) and runs under that key; each request is a
 * line sent to `POST /v1/messages` through the gateway's own front door. None of these routes is metered:
 * the lines are, one ledger row each.
 */
export function createMessageBatchHandlers(batches: BatchService, publicBaseUrl: string | undefined): Pick<OperationHandlers, BatchOperations> {
  const { store } = batches;
  const baseUrl = (req: Request) => imageBaseUrl(req, publicBaseUrl);
  const found = async (id: string, context: RequestContext) => {
    const batch = await store.get(id, accountOf(context));
    // An OpenAI batch (`/v1/batches`) is not a message batch.
    if (!batch || batch.protocol !== 'anthropic') throw batchNotFound(id);
    return batch;
  };
  return {
    createMessageBatch: async (req, res, context) => {
      const principal = principalOf(context);
      const requests = req.body.requests;
      if (requests.length > batches.maxRequests) {
        throw new GatewayError('invalid_request', `A batch holds at most ${batches.maxRequests} requests; this one has ${requests.length}.`, { param: 'requests' });
      }
      const seen = new Set<string>();
      requests.forEach((request, index) => {
        if (seen.has(request.custom_id)) throw new GatewayError('invalid_request', `requests[${index}].custom_id: '${request.custom_id}' is used by an earlier request; each must be unique.`, { param: `requests[${index}].custom_id` });
        seen.add(request.custom_id);
        if (request.params.stream === true) throw new GatewayError('invalid_request', `requests[${index}].params.stream: a batch answers no stream; leave it out.`, { param: `requests[${index}].params.stream` });
      });
      const now = Date.now();
      const lines = requests.map((request) => ({ customId: request.custom_id, endpoint: '/v1/messages', body: JSON.stringify(request.params) }));
      const plan = batches.forwardingPlanner('anthropic', principal.access)(lines);
      const batch = await store.create({
        id: newBatchId('msgbatch_'),
        accountId: principal.account.id,
        keyId: principal.key.id,
        protocol: 'anthropic',
        lines: plan.lines,
        upstreamBatches: plan.upstreamBatches,
        createdAt: now,
        expiresAt: now + batches.expiresAfterMs,
      });
      batches.wake();
      res.json(renderMessageBatch(batch, baseUrl(req)));
    },
    listMessageBatches: async (req, res, context) => {
      const query = req.query as { limit?: string; after_id?: string; before_id?: string };
      const page = await store.list(accountOf(context), 'anthropic', {
        limit: query.limit === undefined ? 20 : Number(query.limit),
        ...(query.after_id !== undefined && { afterId: query.after_id }),
        ...(query.before_id !== undefined && query.after_id === undefined && { beforeId: query.before_id }),
      });
      const data = page.batches.map((batch) => renderMessageBatch(batch, baseUrl(req)));
      res.json({ data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    },
    retrieveMessageBatch: async (req, res, context) => {
      res.json(renderMessageBatch(await found(req.params.message_batch_id, context), baseUrl(req)));
    },
    cancelMessageBatch: async (req, res, context) => {
      await found(req.params.message_batch_id, context);
      const batch = await store.requestCancel(req.params.message_batch_id, accountOf(context), Date.now());
      if (!batch) throw batchNotFound(req.params.message_batch_id);
      await batches.forwardCancel(batch.id);
      batches.wake();
      res.json(renderMessageBatch(batch, baseUrl(req)));
    },
    deleteMessageBatch: async (req, res, context) => {
      const id = req.params.message_batch_id;
      await found(id, context);
      const deleted = await store.delete(id, accountOf(context));
      if (!deleted) throw batchNotFound(id);
      if (deleted === 'running') throw new GatewayError('invalid_request', `Batch '${id}' has not ended: cancel it, and delete it once it has ended.`, { param: 'message_batch_id' });
      res.json({ id, type: 'message_batch_deleted' });
    },
    getMessageBatchResults: async (req, res, context) => {
      const batch = await found(req.params.message_batch_id, context);
      if (batch.status !== 'ended') throw new GatewayError('invalid_request', `Batch '${batch.id}' has not ended yet; its results are available once processing_status is ended.`, { param: 'message_batch_id' });
      res.status(200).type('application/x-jsonl');
      res.flushHeaders();
      try {
        for (let from = 0; from < batch.lineCount && !res.destroyed; from += resultChunk) {
          const lines = await store.results(batch.id, from, resultChunk);
          await writeWithBackpressure(res, lines.map(renderResultLine).join(''));
        }
      } catch (error) {
        // Headers are out: a cut connection tells the client the file is incomplete, where an end would not.
        res.destroy();
        throw error;
      }
      if (!res.destroyed) res.end();
    },
  };
}

function accountOf(context: RequestContext): string {
  return principalOf(context).account.id;
}

/** Worded as Anthropic's: another account's and a deleted batch are simply not found. */
function batchNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No message batch found with id '${id}'.`, { param: 'message_batch_id' });
}
