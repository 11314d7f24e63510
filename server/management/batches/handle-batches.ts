import type { OperationHandlers } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { newBatchId, type BatchService } from '../../batches/batch-service.js';
import type { BatchRecord } from '../../batches/batch-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RequestContext } from '../../core/request-context.js';
import type { AccountFiles } from '../../files/account-files.js';
import { copyBatchInput, openBatchInput } from './read-batch-input.js';
import { renderBatch, type OpenAIBatchMetadata } from './render-batch.js';

type BatchOperations = 'createBatch' | 'retrieveBatch' | 'cancelBatch' | 'listBatches';

/**
 * OpenAI's Batch API, run by the gateway (server/batches/): a batch belongs to the account whose key made it
 * (every other account is told it does not exist) and runs under that key; each line of the input file is
 * sent to the batch's `endpoint` through the gateway's own front door. None of these routes is metered: the
 * lines are, one ledger row each. Reading a batch whose lines have all ended writes its output files first
 * (unless an instance is already at it), so a client polling sees `completed` without waiting for the runner.
 */
export function createBatchHandlers(batches: BatchService, files: AccountFiles): Pick<OperationHandlers, BatchOperations> {
  const { store, openAIFinisher } = batches;
  /** The account's OpenAI batch, with its files written if it has just ended. */
  const found = async (id: string, context: RequestContext): Promise<BatchRecord> => {
    const accountId = accountOf(context);
    let batch = await store.get(id, accountId);
    if (!batch || batch.protocol !== 'openai') throw batchNotFound(id);
    if (batch.status === 'ended' && batch.finishedAt === null) batch = (await openAIFinisher.finish(id, accountId)) ?? batch;
    return batch;
  };
  return {
    createBatch: async (req, res, context) => {
      const principal = principalOf(context);
      const body = req.body;
      const input = await openBatchInput(files, principal.account.id, body.input_file_id);
      const now = Date.now();
      const fields: OpenAIBatchMetadata = {
        endpoint: body.endpoint,
        inputFileId: body.input_file_id,
        completionWindow: body.completion_window,
        metadata: body.metadata ?? null,
        ...(body.output_expires_after && { outputExpiresAfterSeconds: body.output_expires_after.seconds }),
      };
      // `validating` while its lines stream in, in bounded inserts: the runner starts it only once all are in.
      const id = newBatchId('batch_');
      await store
        .createValidating({
          id,
          accountId: principal.account.id,
          keyId: principal.key.id,
          protocol: 'openai',
          metadata: fields as unknown as Record<string, unknown>,
          createdAt: now,
          expiresAt: now + batches.expiresAfterMs,
        })
        .catch(async (error: unknown) => {
          await input.lines.return(undefined);
          throw error;
        });
      // Each piece of lines is planned as it comes: lines for `batch: upstream` models are stored with the
      // upstream batch they go to, which no poller takes up while the batch is `validating`.
      const plan = batches.forwardingPlanner('openai', principal.access);
      let copied;
      try {
        copied = await copyBatchInput(input, { fileId: body.input_file_id, endpoint: body.endpoint, maxRequests: batches.maxRequests }, (position, lines) => {
          const piece = plan(lines);
          return store.addLines(id, position, piece.lines, piece.upstreamBatches, now);
        });
      } catch (error) {
        // If even this fails (the store is down), the runner's sweep fails the batch once it is abandoned.
        await store.discardValidating(id).catch(() => undefined);
        throw error;
      }
      // A batch with a line for another endpoint fails whole, as at OpenAI: it is kept (ended, no lines) to be read.
      if (copied.errors.length > 0) {
        await store.failValidation(id, { ...fields, errors: copied.errors }, Date.now());
      } else {
        await store.startValidated(id, copied.lineCount);
        batches.wake();
      }
      res.json(renderBatch((await store.get(id, principal.account.id))!));
    },
    retrieveBatch: async (req, res, context) => {
      res.json(renderBatch(await found(req.params.batch_id, context)));
    },
    cancelBatch: async (req, res, context) => {
      await found(req.params.batch_id, context);
      const batch = await store.requestCancel(req.params.batch_id, accountOf(context), Date.now());
      if (!batch) throw batchNotFound(req.params.batch_id);
      await batches.forwardCancel(batch.id);
      batches.wake();
      res.json(renderBatch(batch));
    },
    listBatches: async (req, res, context) => {
      const query = req.query as { limit?: string; after?: string };
      const accountId = accountOf(context);
      const page = await store.list(accountId, 'openai', {
        limit: query.limit === undefined ? 20 : Math.min(100, Math.max(1, Number(query.limit))),
        ...(query.after !== undefined && { afterId: query.after }),
      });
      const listed: BatchRecord[] = [];
      for (const batch of page.batches) {
        listed.push(batch.status === 'ended' && batch.finishedAt === null ? ((await openAIFinisher.finish(batch.id, accountId)) ?? batch) : batch);
      }
      const data = listed.map(renderBatch);
      res.json({ object: 'list', data, ...(data.length > 0 && { first_id: data[0]!.id, last_id: data.at(-1)!.id }), has_more: page.hasMore });
    },
  };
}

function accountOf(context: RequestContext): string {
  return principalOf(context).account.id;
}

/** Another account's batch, and an Anthropic batch, are simply not found. */
function batchNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No batch found with id '${id}'.`, { param: 'batch_id', code: 'not_found' });
}
