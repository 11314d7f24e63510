import type { OperationHandlers, SuccessBody } from '../../../generated/operations.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ConversationStore, StoredConversationRecord } from '../../store/conversation-store.js';
import { checkedMetadata, conversationItems, conversationNotFound, listedConversationItem, newConversationId } from './conversation-items.js';
import { ownerOf } from './handle-stored-responses.js';
import { readPageQuery } from './paginate-items.js';
import type { ResponsesCreateRequest } from './wire-types.js';

type ConversationOperations =
  | 'createConversation'
  | 'getConversation'
  | 'updateConversation'
  | 'deleteConversation'
  | 'listConversationItems'
  | 'createConversationItems'
  | 'getConversationItem'
  | 'deleteConversationItem';

/**
 * OpenAI's Conversations routes, on the gateway's own store (store/conversation-store.ts): a conversation
 * belongs to the account whose key made it, as stored responses do, and every other account is told it
 * does not exist. `POST /v1/responses` with `conversation` reads and extends it (responses-history.ts).
 */
export function createConversationHandlers(store: ConversationStore): Pick<OperationHandlers, ConversationOperations> {
  const found = async (id: string, owner: string) => {
    const conversation = await store.get(id, owner);
    if (!conversation) throw conversationNotFound(id, 'conversation_id');
    return conversation;
  };
  return {
    createConversation: async (req, res, context) => {
      const body = req.body ?? {};
      const record = { id: newConversationId(), ownerId: ownerOf(context), createdAt: Math.floor(Date.now() / 1000), metadata: checkedMetadata(body.metadata) };
      await store.create(record, conversationItems((body.items ?? []) as ResponsesCreateRequest['input']));
      res.json(rendered(record));
    },
    getConversation: async (req, res, context) => {
      res.json(rendered(await found(req.params.conversation_id, ownerOf(context))));
    },
    updateConversation: async (req, res, context) => {
      const id = req.params.conversation_id;
      const updated = await store.setMetadata(id, ownerOf(context), checkedMetadata(req.body.metadata));
      if (!updated) throw conversationNotFound(id, 'conversation_id');
      res.json(rendered(updated));
    },
    deleteConversation: async (req, res, context) => {
      const id = req.params.conversation_id;
      if (!(await store.delete(id, ownerOf(context)))) throw conversationNotFound(id, 'conversation_id');
      res.json({ id, object: 'conversation.deleted', deleted: true });
    },
    listConversationItems: async (req, res, context) => {
      // `before` is no parameter of this route (the contract lets unknown query parameters through): not read.
      const { after, limit, order } = readPageQuery(req.query as Record<string, unknown>);
      const query = { after, limit, order };
      const page = await store.page(req.params.conversation_id, ownerOf(context), query);
      if (page === 'no-conversation') throw conversationNotFound(req.params.conversation_id, 'conversation_id');
      if (page === 'unknown-cursor') throw new GatewayError('invalid_request', `No item with id '${query.after}' in this conversation.`, { param: 'after' });
      res.json(itemList(page.items, page.hasMore));
    },
    createConversationItems: async (req, res, context) => {
      const id = req.params.conversation_id;
      const items = conversationItems(req.body.items as ResponsesCreateRequest['input']);
      if (!(await store.append(id, ownerOf(context), items))) throw conversationNotFound(id, 'conversation_id');
      res.json(itemList(items, false));
    },
    getConversationItem: async (req, res, context) => {
      const { conversation_id: id, item_id: itemId } = req.params;
      const owner = ownerOf(context);
      await found(id, owner);
      const item = await store.item(id, owner, itemId);
      if (!item) throw itemNotFound(itemId);
      res.json(listedConversationItem(item) as SuccessBody<'getConversationItem'>);
    },
    deleteConversationItem: async (req, res, context) => {
      const { conversation_id: id, item_id: itemId } = req.params;
      const owner = ownerOf(context);
      const conversation = await found(id, owner);
      if (!(await store.deleteItem(id, owner, itemId))) throw itemNotFound(itemId);
      res.json(rendered(conversation));
    },
  };
}

function rendered(conversation: StoredConversationRecord): SuccessBody<'getConversation'> {
  return { id: conversation.id, object: 'conversation', created_at: conversation.createdAt, metadata: conversation.metadata };
}

/**
 * Items in OpenAI's list shape. OpenAI's spec makes `first_id` and `last_id` strings, never null (unlike
 * `input_items`' nullable ones): an empty page says ''.
 */
function itemList(items: ReadonlyArray<Record<string, unknown>>, hasMore: boolean): SuccessBody<'listConversationItems'> {
  const data = items.map(listedConversationItem) as SuccessBody<'listConversationItems'>['data'];
  return { object: 'list', data, first_id: (items[0]?.id as string | undefined) ?? '', last_id: (items.at(-1)?.id as string | undefined) ?? '', has_more: hasMore };
}

function itemNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `Item with id '${id}' not found.`, { param: 'item_id', code: 'not_found' });
}
