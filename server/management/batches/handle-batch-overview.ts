import type { Request } from 'express';
import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import { principalOf } from '../../access/principal-of.js';
import type { BatchStore } from '../../batches/batch-store.js';
import { GatewayError } from '../../core/gateway-error.js';
import { imageBaseUrl } from '../../protocols/openai-images/image-base-url.js';
import { renderBatchOverview } from './render-batch-overview.js';

type BatchOverviewHandlers = Pick<OperationHandlers, 'listMyBatches' | 'listAllBatches'>;

/** Query values arrive as strings (the validator has checked their form). */
interface BatchOverviewQuery {
  account_id?: string;
  limit?: string;
  after?: string;
}

const defaultLimit = 50;

/**
 * The console's list of batches of every kind (`/v1/account/batches`, `/admin/v1/batches`), read from the one
 * batch store every protocol's batch routes write. An account key lists its account's batches, as each
 * protocol's own list does (every key of the account sees them); the admin lists every account's, or one's.
 */
export function createBatchOverviewHandlers(store: BatchStore, publicBaseUrl: string | undefined): BatchOverviewHandlers {
  const list = async (req: Request, accountId: string | undefined) => {
    const query = req.query as BatchOverviewQuery;
    const page = await store.listEveryKind(accountId, {
      limit: query.limit === undefined ? defaultLimit : Number(query.limit),
      ...(query.after !== undefined && { afterId: query.after }),
    });
    // A cursor of another account is as unknown as one that never was.
    if (page === 'unknown-cursor') throw new GatewayError('invalid_request', `No batch with id '${query.after}' to list after.`, { param: 'after' });
    const baseUrl = imageBaseUrl(req, publicBaseUrl);
    const data = page.batches.map((batch) => renderBatchOverview(batch, baseUrl));
    return { object: 'list' as const, data, has_more: page.hasMore, last_id: data.at(-1)?.id ?? null };
  };
  return {
    ...adminOnly<Pick<BatchOverviewHandlers, 'listAllBatches'>>({
      async listAllBatches(req, res) {
        res.json(await list(req, (req.query as BatchOverviewQuery).account_id));
      },
    }),
    async listMyBatches(req, res, context) {
      res.json(await list(req, principalOf(context).account.id));
    },
  };
}
