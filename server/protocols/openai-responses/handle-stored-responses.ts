import type { OperationHandlers, SuccessBody } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RequestContext } from '../../core/request-context.js';
import type { ResponseStore } from '../../store/response-store.js';
import { listedInputItem } from './listed-input-item.js';
import { paginateItems, readPageQuery } from './paginate-items.js';

/** Stored responses belong to the account, as at OpenAI (per project): every key of it sees them. */
export function ownerOf(context: RequestContext): string {
  return principalOf(context).account.id;
}

/** Worded like OpenAI's: another account's, an expired and a deleted response are all simply not found. */
export function responseNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No response found with id '${id}'.`, { param: 'response_id', code: 'not_found' });
}

/** `GET /v1/responses/{id}`, `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`. */
export function createStoredResponseHandlers(
  store: ResponseStore,
): Pick<OperationHandlers, 'getResponse' | 'deleteResponse' | 'listResponseInputItems'> {
  return {
    getResponse: async (req, res, context) => {
      const stored = await store.get(req.params.response_id, ownerOf(context));
      if (!stored) throw responseNotFound(req.params.response_id);
      // The store keeps the answer as the gateway gave it (render-response.ts), a Response object of the contract.
      res.json(stored.response as SuccessBody<'getResponse'>);
    },
    deleteResponse: async (req, res, context) => {
      const id = req.params.response_id;
      if (!(await store.delete(id, ownerOf(context)))) throw responseNotFound(id);
      res.json({ id, object: 'response', deleted: true });
    },
    listResponseInputItems: async (req, res, context) => {
      const query = readPageQuery(req.query as Record<string, unknown>);
      const stored = await store.get(req.params.response_id, ownerOf(context));
      if (!stored) throw responseNotFound(req.params.response_id);
      const page = paginateItems(stored.inputItems, query);
      // Stored items are the request's as validated against the contract, listed in its listing shape (listed-input-item.ts).
      res.json({ ...page, data: page.data.map(listedInputItem) as SuccessBody<'listResponseInputItems'>['data'] });
    },
  };
}
