import type { BroughtItem } from '../../access/wire-scan/wire-scan.js';
import type { RouteTarget } from '../../core/route-target.js';
import type { ConversationStore } from '../../store/conversation-store.js';
import type { ResponseStore, StoredConversation } from '../../store/response-store.js';
import { GatewayError } from '../../core/gateway-error.js';
import { conversationIdOf, conversationNotFound } from './conversation-items.js';
import type { ResponsesHistory } from './convert-responses-request.js';
import { responseNotFound } from './handle-stored-responses.js';
import { conversationForUpstream, inputForUpstream, isItemReference, type ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';

/**
 * What a request builds on: the items of the stored conversation `previous_response_id` names, or of the
 * `conversation` (with no earlier responses: no upstream holds it), and the item lookup.
 */
export interface LoadedHistory {
  previous?: StoredConversation;
  /** The request field that brought `previous` in, which names its items in a refusal. */
  broughtBy: 'previous_response_id' | 'conversation';
  lookup: ItemLookup;
  /** The same, as the request converter takes it. */
  forConversion: ResponsesHistory;
}

/**
 * The conversation a Responses request continues, read from the gateway's own store (so
 * `previous_response_id` works on every upstream): 404 for an unknown, expired or another account's ID.
 */
export async function loadHistory(stores: { store: ResponseStore; conversations: ConversationStore }, owner: string, body: ResponsesCreateRequest): Promise<LoadedHistory> {
  const conversationId = conversationIdOf(body);
  if (conversationId !== undefined && body.previous_response_id) {
    // OpenAI's words for it.
    throw new GatewayError('invalid_request', "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.", {
      code: 'mutually_exclusive_parameters',
    });
  }
  const previous = conversationId !== undefined ? await conversationHistory(stores.conversations, conversationId, owner) : await responseHistory(stores.store, owner, body);
  const items = previous?.items ?? [];
  const lookup = await itemLookup(stores.store, owner, items, [...items, ...(Array.isArray(body.input) ? (body.input as Item[]) : [])]);
  const broughtBy = conversationId !== undefined ? 'conversation' : 'previous_response_id';
  return { previous, broughtBy, lookup, forConversion: { items: items as ResponsesInputItem[], lookup: lookup as ResponsesHistory['lookup'] } };
}

async function responseHistory(store: ResponseStore, owner: string, body: ResponsesCreateRequest): Promise<StoredConversation | undefined> {
  if (!body.previous_response_id) return undefined;
  const previous = await store.conversation(body.previous_response_id, owner);
  if (!previous) throw responseNotFound(body.previous_response_id);
  return previous;
}

/** A conversation's items as the history, like a `previous_response_id` chain that no upstream holds. */
async function conversationHistory(conversations: ConversationStore, id: string, owner: string): Promise<StoredConversation> {
  const items = await conversations.items(id, owner);
  if (!items) throw conversationNotFound(id, 'conversation');
  return { items, responses: [] };
}

/**
 * Every item the request brings in besides its body, for the permission check: each `item_reference` of
 * `input` as the item it names (`input[i]`, so the refusal is the one that item sent directly gets), and
 * every item of the `previous_response_id` chain or the `conversation` (`previous_response_id[i]`,
 * `conversation[i]`), whether the gateway sends it on or the upstream holds it. A reference the gateway cannot resolve stays a reference.
 */
export function broughtItems(history: LoadedHistory, input: ResponsesCreateRequest['input']): BroughtItem[] {
  const resolved = (item: Item) => (isItemReference(item) ? (history.lookup(item.id as string) ?? item) : item);
  const referenced = Array.isArray(input)
    ? (input as Item[]).flatMap((item, index) => (isItemReference(item) ? [{ item: resolved(item), param: `input[${index}]` }] : []))
    : [];
  const earlier = (history.previous?.items ?? []).map((item, index) => ({ item: resolved(item), param: `${history.broughtBy}[${index}]` }));
  return [...referenced, ...earlier];
}

/**
 * The body an `api: responses` upstream gets. `previous_response_id` becomes the upstream's own ID for
 * that response when the upstream holds it (it answered and stored it), and gives way to the gateway's
 * copy of the conversation otherwise (the previous turn ran elsewhere, or the upstream was asked not to
 * store it). A `conversation` is the gateway's, sent as its items: never named to the upstream. `body` is
 * the client's without the dropped features: a copy, rewritten in place.
 */
export function bodyForUpstream(body: Record<string, unknown>, clientInput: ResponsesCreateRequest['input'], history: LoadedHistory, target: RouteTarget): Record<string, unknown> {
  const { previous, lookup } = history;
  delete body.conversation;
  const held = previous?.responses.at(-1)?.upstream;
  if (held && held.providerId === target.deployment.provider.id) {
    body.previous_response_id = held.responseId;
    body.input = inputForUpstream(clientInput, lookup);
  } else if (previous) {
    body.input = conversationForUpstream(previous.items, clientInput, lookup);
    delete body.previous_response_id;
  } else {
    body.input = inputForUpstream(clientInput, lookup);
  }
  return body;
}

type Item = Record<string, unknown>;

/**
 * Resolves `item_reference`s as OpenAI does: among every item the owner has stored, not only the
 * `previous_response_id` chain (the AI SDK refers to earlier turns by item ID without one). The chain is
 * searched first; the store is asked once, for the IDs the chain lacks. `referring` holds the references
 * to resolve: the input's and the chain's own (a reference keeps the ID it names, so it is never its
 * own answer).
 */
async function itemLookup(store: ResponseStore, owner: string, history: readonly Item[], referring: readonly Item[]): Promise<ItemLookup> {
  const inChain = (id: string) => history.find((item) => item.id === id && !isItemReference(item));
  const referenced = referring.filter(isItemReference).map((item) => item.id as string);
  const missing = referenced.filter((id) => !inChain(id));
  const stored = await store.findItems(missing, owner);
  return (id) => inChain(id) ?? stored.get(id);
}
