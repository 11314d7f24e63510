import type { Request, Response } from 'express';
import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import { principalOf } from '../../access/principal-of.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RequestContext } from '../../core/request-context.js';
import type { KeyStore } from '../../store/key-store.js';
import { retentionHorizon } from '../../usage/ledger-retention.js';
import type { UsageGrouping } from '../../usage/summarize-usage.js';
import { maxExportRows, maxListLimit, type UsageFilter, type UsageStore } from '../../usage/usage-store.js';
import { toApiUsageRecord } from './api-usage-record.js';
import { usageExportForms } from './usage-export-forms.js';
import { decodeUsageCursor, encodeUsageCursor } from './usage-record-cursor.js';
import { writeUsageExport } from './write-usage-export.js';

type UsageHandlers = Pick<OperationHandlers, 'getAdminUsage' | 'getUsage' | 'listUsageRecords' | 'listMyUsageRecords'>;

/** Query values arrive as strings (the validator has checked their form). */
interface UsageQuery {
  account_id?: string;
  key_id?: string;
  model?: string;
  from?: string;
  to?: string;
  group_by?: UsageGrouping;
  limit?: string;
  before?: string;
}

const defaultWindowSeconds = 30 * 86_400;
const defaultRecordLimit = 100;

/** Whose records a report reads: an account (or all), and within it only some keys. */
type UsageOwner = Pick<UsageFilter, 'accountId' | 'keyIds'>;

/**
 * The usage reports (`/admin/v1/usage`, `/v1/usage`) and the recent requests lists (`…/usage/records`).
 * The admin routes read any account (or all); the `/v1` ones only the caller's key and the keys minted
 * from it (its subtree), as `GET /v1/keys` shows them, so a narrowed key cannot read a wider one's usage
 * nor a sibling's.
 */
export function createUsageHandlers(store: UsageStore, keys: KeyStore, retentionDays: number | undefined): UsageHandlers {
  const report = async (query: UsageQuery, owner: UsageOwner) => {
    const { from, to } = timeWindow(query);
    const groupBy = query.group_by ?? 'day';
    const recordsSince = retentionHorizon(retentionDays);
    const data = await store.summarize(filterOf(query, owner, { from, to }), groupBy, recordsSince);
    return { object: 'usage_report' as const, group_by: groupBy, from, to, records_since: recordsSince === undefined ? null : recordsSince / 1000, data };
  };
  const records = async (req: Request, res: Response, owner: UsageOwner) => {
    const query = req.query as UsageQuery;
    const filter = filterOf(query, owner, timeWindow(query));
    const after = query.before === undefined ? undefined : decodeUsageCursor(query.before);
    // An export only when asked for by name: `*/*` and a missing Accept get the JSON page (the first listed wins ties).
    const form = req.accepts(['application/json', ...Object.keys(usageExportForms)]);
    if (form === 'text/csv' || form === 'application/x-ndjson') {
      // The contract bounds `limit` to 1..maxExportRows, so the validator has refused any other.
      const limit = query.limit === undefined ? maxExportRows : Number(query.limit);
      const fileName = `usage-${new Date().toISOString().slice(0, 10)}.${usageExportForms[form].extension}`;
      return writeUsageExport(res, store.records(filter, { limit, after }), usageExportForms[form], fileName);
    }
    const limit = query.limit === undefined ? defaultRecordLimit : Number(query.limit);
    if (limit > maxListLimit) {
      throw new GatewayError('invalid_request', `'limit' is at most ${maxListLimit} for a JSON page (up to ${maxExportRows} for a CSV or NDJSON export).`, { param: 'limit' });
    }
    const page = await store.page(filter, { limit, after });
    const data = page.records.map(toApiUsageRecord);
    const last = data[data.length - 1];
    res.json({ object: 'list', data, next_before: page.more ? encodeUsageCursor({ createdAt: last.created_at, id: last.id }) : null });
  };
  return {
    ...adminOnly<Pick<UsageHandlers, 'getAdminUsage' | 'listUsageRecords'>>({
      async getAdminUsage(req, res) {
        const query = req.query as UsageQuery;
        res.json(await report(query, { accountId: query.account_id }));
      },
      async listUsageRecords(req, res) {
        await records(req, res, { accountId: (req.query as UsageQuery).account_id });
      },
    }),
    async getUsage(req, res, context) {
      const query = req.query as UsageQuery;
      res.json(await report(query, await callersKeys(keys, context, query)));
    },
    async listMyUsageRecords(req, res, context) {
      await records(req, res, await callersKeys(keys, context, req.query as UsageQuery));
    },
  };
}

/**
 * The caller's account and subtree, read once per request. A `key_id` outside the subtree is not found
 * (404), as in `/v1/keys/{key_id}`, so a key's existence elsewhere is not revealed.
 */
async function callersKeys(keys: KeyStore, context: RequestContext, query: UsageQuery): Promise<UsageOwner> {
  const { key, account } = principalOf(context);
  const keyIds = (await keys.listSubtree(key.id)).map((record) => record.id);
  if (query.key_id !== undefined && !keyIds.includes(query.key_id)) {
    throw new GatewayError('not_found', `No key with id ${query.key_id} in your keys (this key and those minted from it).`, { param: 'key_id' });
  }
  return { accountId: account.id, keyIds };
}

/** `[from, to)` in Unix seconds: by default the 30 days up to now. */
function timeWindow(query: UsageQuery): { from: number; to: number } {
  const to = query.to === undefined ? Math.floor(Date.now() / 1000) + 1 : Number(query.to);
  const from = query.from === undefined ? to - defaultWindowSeconds : Number(query.from);
  return { from, to };
}

function filterOf(query: UsageQuery, owner: UsageOwner, { from, to }: { from: number; to: number }): UsageFilter {
  return { ...owner, keyId: query.key_id, model: query.model, from: from * 1000, to: to * 1000 };
}
