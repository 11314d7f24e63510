import type { ConversationStore } from '../../store/conversation-store.js';
import { conversationItems } from './conversation-items.js';
import type { SaveResponse } from './save-response.js';
import type { ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest } from './wire-types.js';

type Item = Record<string, unknown>;

/** The conversation a turn runs in, and how to read what it adds. */
export interface ConversationTurn {
  conversations: ConversationStore;
  conversationId: string;
  owner: string;
  /** The request's input as kept (each with its ID, shared with the stored response's `input_items`). */
  inputItems: readonly Item[];
  /** Resolves the input's `item_reference`s; read once the history is loaded, before the answer. */
  lookup: () => ItemLookup;
}

/**
 * The save hook of a turn with `conversation`: keeps the response as usual, then appends the turn's input
 * items and output items to the conversation, as OpenAI does once a response finishes (the hook runs for
 * completed and incomplete answers, before their last event goes out, so the next turn finds them). A
 * conversation deleted meanwhile just takes nothing.
 */
export function savingToConversation(save: SaveResponse, turn: ConversationTurn | undefined): SaveResponse {
  if (!turn) return save;
  return async (response, upstream) => {
    await save(response, upstream);
    const output = Array.isArray(response.output) ? (response.output as Item[]) : [];
    const items = conversationItems([...turn.inputItems, ...output] as ResponsesCreateRequest['input'], turn.lookup());
    await turn.conversations.append(turn.conversationId, turn.owner, items);
  };
}
