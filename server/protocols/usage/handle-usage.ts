import type { OperationHandlers } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import type { UsageStore } from '../../usage/usage-store.js';

type UsageHandlers = Pick<OperationHandlers, 'getAdminUsage' | 'getUsage'>;

/** Query values arrive as strings (the validator has checked their form). */
interface UsageQuery {
  account_id?: string;
  key_id?: string;
  model?: string;
  from?: string;
  to?: string;
  group_by?: 'day' | 'model';
}

const defaultWindowSeconds = 30 * 86_400;

/** `GET /admin/v1/usage` (any account) and `GET /v1/usage` (the caller's own account only). */
export function createUsageHandlers(store: UsageStore): UsageHandlers {
  const report = async (query: UsageQuery, accountId: string | undefined) => {
    const to = query.to === undefined ? Math.floor(Date.now() / 1000) + 1 : Number(query.to);
    const from = query.from === undefined ? to - defaultWindowSeconds : Number(query.from);
    const groupBy = query.group_by ?? 'day';
    const data = await store.summarize({ accountId, keyId: query.key_id, model: query.model, from: from * 1000, to: to * 1000 }, groupBy);
    return { object: 'usage_report' as const, group_by: groupBy, from, to, data };
  };
  return {
    async getAdminUsage(req, res) {
      const query = req.query as UsageQuery;
      res.json(await report(query, query.account_id));
    },
    async getUsage(req, res) {
      res.json(await report(req.query as UsageQuery, principalOf(res).account.id));
    },
  };
}
