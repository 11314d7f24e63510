import { newPrefixedId } from './response-ids.js';
import type { ResponsesCreateRequest } from './wire-types.js';

type Item = Record<string, unknown>;

/**
 * The request's input as the items `GET /v1/responses/{id}/input_items` lists and `previous_response_id`
 * replays: a string becomes one user message; every item gets an ID if it has none (`msg_` for messages,
 * `fco_` for tool outputs), because the list is paginated by item ID.
 */
export function storedInputItems(input: ResponsesCreateRequest['input']): Item[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') {
    return [{ id: newPrefixedId('msg'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  }
  return (input as Item[]).map((item) => {
    const type = typeof item.type === 'string' ? item.type : 'role' in item ? 'message' : 'item_reference';
    const normalized: Item = { ...item, type };
    if (type === 'message' && typeof normalized.content === 'string') {
      normalized.content = [{ type: normalized.role === 'assistant' ? 'output_text' : 'input_text', text: normalized.content }];
    }
    if (typeof normalized.id !== 'string') normalized.id = newPrefixedId(type === 'function_call_output' ? 'fco' : 'msg');
    return normalized;
  });
}
