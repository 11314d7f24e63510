import { GatewayError } from '../../core/gateway-error.js';
import { listedInputItem } from './listed-input-item.js';
import { newPrefixedId } from './response-ids.js';
import { storedInputItems } from './stored-input-items.js';
import { isItemReference, type ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest } from './wire-types.js';

type Item = Record<string, unknown>;

/** Worded like OpenAI's: another account's and a deleted conversation are simply not found. */
export function conversationNotFound(id: string, param: string): GatewayError {
  return new GatewayError('not_found', `Conversation with id '${id}' not found.`, { param, code: 'not_found' });
}

/** A new conversation's ID, shaped like OpenAI's (`conv_` and 48 hex digits). */
export const newConversationId = (): string => newPrefixedId('conv');

/** The conversation a Responses request names (`conversation` as an ID or as `{id}`), if any. */
export function conversationIdOf(body: Pick<ResponsesCreateRequest, 'conversation'>): string | undefined {
  const named = body.conversation;
  if (typeof named === 'string') return named;
  return named && typeof named === 'object' ? named.id : undefined;
}

/**
 * Items as a conversation keeps them: as `input_items` keeps a request's (stored-input-items.ts: a string
 * content becomes parts, every item gets an ID), with each `item_reference` replaced by the item it names
 * when the gateway holds it, since a conversation's items are listed, and replayed, as items.
 */
export function conversationItems(items: ResponsesCreateRequest['input'], lookup: ItemLookup = () => undefined): Item[] {
  return storedInputItems(items).map((item) => {
    if (!isItemReference(item)) return item;
    const named = lookup(item.id as string);
    return named ? { ...named } : item;
  });
}

/** An item as the Conversations routes list it: as `input_items` lists one (listed-input-item.ts). */
export const listedConversationItem = listedInputItem;

/** Metadata as OpenAI takes it: at most 16 pairs (the contract checks), keys of at most 64 characters. */
export function checkedMetadata(metadata: Record<string, string> | null | undefined): Record<string, string> {
  const pairs = metadata ?? {};
  const long = Object.keys(pairs).find((key) => key.length > 64);
  if (long !== undefined) throw new GatewayError('invalid_request', `Invalid 'metadata': the key '${long.slice(0, 80)}' is longer than 64 characters.`, { param: 'metadata' });
  return pairs;
}
