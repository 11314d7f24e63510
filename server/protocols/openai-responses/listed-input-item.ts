type Item = Record<string, unknown>;

/** The items OpenAI lists with a `status`; the request may have sent them without one. */
const itemsWithStatus = new Set(['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output']);

/**
 * A stored input item as `GET /v1/responses/{id}/input_items` lists it, in the shape OpenAI's spec gives
 * listed items: calls, outputs and messages with a `status` (`completed`: the request handed them over
 * whole), an assistant message's `output_text` parts with `annotations` and `logprobs`. Only the listing
 * changes: the stored item, which later turns replay to upstreams, stays as the client sent it.
 *
 * @example listedInputItem({ id: 'fco_1', type: 'function_call_output', call_id: 'call_1', output: '42' })
 * // → { id: 'fco_1', type: 'function_call_output', call_id: 'call_1', output: '42', status: 'completed' }
 */
export function listedInputItem(item: Item): Item {
  if (typeof item.type !== 'string' || !itemsWithStatus.has(item.type)) return item;
  const listed: Item = { ...item, status: typeof item.status === 'string' ? item.status : 'completed' };
  if (item.type === 'message' && item.role === 'assistant' && Array.isArray(item.content)) {
    listed.content = item.content.map((part: Item) => (part?.type === 'output_text' ? { annotations: [], logprobs: [], ...part } : part));
  }
  return listed;
}
