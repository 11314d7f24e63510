import type { BroughtItem } from '../../access/wire-scan/wire-scan.js';
import type { RouteTarget } from '../../core/route-target.js';
import type { ResponseStore, StoredConversation } from '../../store/response-store.js';
import type { ResponsesHistory } from './convert-responses-request.js';
import { responseNotFound } from './handle-stored-responses.js';
import { conversationForUpstream, inputForUpstream, isItemReference, type ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';

/** What a request builds on: the stored conversation `previous_response_id` names, and the item lookup. */
export interface LoadedHistory {
  previous?: StoredConversation;
  lookup: ItemLookup;
  /** The same, as the request converter takes it. */
  forConversion: ResponsesHistory;
}

/**
 * The conversation a Responses request continues, read from the gateway's own store (so
 * `previous_response_id` works on every upstream): 404 for an unknown, expired or another account's ID.
 */
export async function loadHistory(store: ResponseStore, owner: string, body: ResponsesCreateRequest): Promise<LoadedHistory> {
  const previous = body.previous_response_id ? await store.conversation(body.previous_response_id, owner) : undefined;
  if (body.previous_response_id && !previous) throw responseNotFound(body.previous_response_id);
  const items = previous?.items ?? [];
  const lookup = await itemLookup(store, owner, items, [...items, ...(Array.isArray(body.input) ? (body.input as Item[]) : [])]);
  return { previous, lookup, forConversion: { items: items as ResponsesInputItem[], lookup: lookup as ResponsesHistory['lookup'] } };
}

/**
 * Every item the request brings in besides its body, for the permission check: each `item_reference` of
 * `input` as the item it names (`input[i]`, so the refusal is the one that item sent directly gets), and
 * every item of the `previous_response_id` conversation (`previous_response_id[i]`), whether the gateway
 * sends it on or the upstream holds it. A reference the gateway cannot resolve stays a reference.
 */
export function broughtItems(history: LoadedHistory, input: ResponsesCreateRequest['input']): BroughtItem[] {
  const resolved = (item: Item) => (isItemReference(item) ? (history.lookup(item.id as string) ?? item) : item);
  const referenced = Array.isArray(input)
    ? (input as Item[]).flatMap((item, index) => (isItemReference(item) ? [{ item: resolved(item), param: `input[${index}]` }] : []))
    : [];
  const earlier = (history.previous?.items ?? []).map((item, index) => ({ item: resolved(item), param: `previous_response_id[${index}]` }));
  return [...referenced, ...earlier];
}

/**
 * The body an `api: responses` upstream gets. `previous_response_id` becomes the upstream's own ID for
 * that response when the upstream holds it (it answered and stored it), and gives way to the gateway's
 * copy of the conversation otherwise (the previous turn ran elsewhere, or the upstream was asked not to
 * store it). `body` is the client's without the dropped features: a copy, rewritten in place.
 */
export function bodyForUpstream(body: Record<string, unknown>, clientInput: ResponsesCreateRequest['input'], history: LoadedHistory, target: RouteTarget): Record<string, unknown> {
  const { previous, lookup } = history;
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
