import type { ConversationStore } from '../../store/conversation-store.js';
import type { ResponseStore, UpstreamResponseRef } from '../../store/response-store.js';
import { storedInputItems } from './stored-input-items.js';
import type { ResponsesResponse } from './render-response.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/** Stores a finished response (a no-op without `store`); `upstream` when the upstream keeps it too. */
export type SaveResponse = (response: ResponsesResponse, upstream: UpstreamResponseRef | null) => Promise<void>;

export interface ResponseKeeping {
  store: ResponseStore;
  /** The conversations `conversation` names (POST /v1/conversations). */
  conversations: ConversationStore;
  /** Seconds a stored response lives. */
  retentionSeconds: number;
}

/**
 * Keeps a finished answer and its input under the gateway's response ID for the next turn, unless the
 * client asked `store: false`.
 */
export function responseSaver(keeping: ResponseKeeping, owner: string, body: ResponsesCreateRequest, id: string, inputItems = storedInputItems(body.input)): SaveResponse {
  return async (response, upstream) => {
    if (body.store === false) return;
    // Retention counts from when the gateway kept the response, whatever the upstream's `created_at`.
    const storedAt = Math.floor(Date.now() / 1000);
    await keeping.store.save({
      id,
      ownerId: owner,
      previousResponseId: body.previous_response_id ?? null,
      createdAt: storedAt,
      expiresAt: storedAt + keeping.retentionSeconds,
      inputItems,
      response,
      upstream,
    });
  };
}
