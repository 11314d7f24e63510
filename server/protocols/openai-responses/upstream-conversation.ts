import { decodeReasoningState } from './reasoning-state.js';
import { storedInputItems } from './stored-input-items.js';
import type { ResponsesCreateRequest } from './wire-types.js';

type Item = Record<string, unknown>;
type Input = ResponsesCreateRequest['input'];
/** Finds an item the gateway stored, by ID (the `previous_response_id` chain first, then the owner's other responses). */
export type ItemLookup = (id: string) => Item | undefined;

/**
 * The input for an upstream Responses API that does not hold the conversation: the gateway's stored
 * history, then this request's input (see {@link inputForUpstream}). History items go without their IDs
 * (the gateway's or another upstream's, which an upstream that never stored them would refuse; `call_id`s
 * still pair calls with outputs), and reasoning only with OpenAI's own `encrypted_content`: a summary alone,
 * or the gateway's state of another upstream's reasoning (reasoning-state.ts), is nothing an OpenAI model
 * can take back.
 */
export function conversationForUpstream(history: readonly Item[], input: Input, lookup: ItemLookup): Item[] {
  const earlier = history.flatMap((item) => portable(isItemReference(item) ? (lookup(item.id as string) ?? item) : item));
  // The client's own items go as sent, but a string input has to become an item to follow the history.
  const current = typeof input === 'string' ? storedInputItems(input).map(withoutId) : ((inputForUpstream(input, lookup) ?? []) as Item[]);
  return [...earlier, ...current];
}

/**
 * The client's input with every `item_reference` the gateway can resolve replaced by the item it names,
 * made portable as history is: the item may come from another upstream, or from a turn the upstream never
 * saw. References the gateway does not know are left for the upstream to judge. Without references the
 * input is returned as is.
 */
export function inputForUpstream(input: Input, lookup: ItemLookup): Input {
  if (!Array.isArray(input) || !input.some((item) => isItemReference(item as Item))) return input;
  return (input as Item[]).flatMap((item) => {
    const named = isItemReference(item) ? lookup(item.id as string) : undefined;
    return named ? portable(named) : [item];
  }) as Input;
}

/** OpenAI lets `type` be left out of a reference: an item with neither `type` nor `role` is one. */
export function isItemReference(item: Item): boolean {
  return (item.type === 'item_reference' || (item.type === undefined && !('role' in item))) && typeof item.id === 'string';
}

function portable(item: Item): Item[] {
  if (item.type === 'reasoning') return isOpenAIReasoning(item) ? [item] : [];
  if (item.type === 'item_reference') return [item];
  return [withoutId(item)];
}

function withoutId({ id: _id, ...item }: Item): Item {
  return item;
}

function isOpenAIReasoning(item: Item): boolean {
  return typeof item.encrypted_content === 'string' && decodeReasoningState(item.encrypted_content) === undefined;
}
