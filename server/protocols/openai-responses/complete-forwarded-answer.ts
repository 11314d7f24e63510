// What OpenAI's spec requires of a Responses answer but an upstream's may lack, filled in as the answer is
// forwarded: OpenAI's own API sent no `cache_write_tokens` before 2026-07, ended streamed function calls
// without their `name` and fails responses with codes its spec does not list (`insufficient_quota`), and
// other servers that speak Responses may do the same. A client then reads a forwarded answer with the same
// types as a translated one.
import { asRecord, parseJson } from '../../providers/upstream/parse-json.js';
import { responseErrorCode } from './response-error-code.js';

/**
 * A whole response (the JSON answer, or the snapshot of a lifecycle event), completed in place: the usage
 * details OpenAI's spec requires (0 for a count the upstream left out), and an `error.code` from OpenAI's
 * list (response-error-code.ts; the upstream's own code still reaches the client in the `error` event).
 */
export function completeResponse(response: Record<string, unknown>): void {
  const error = asRecord(response.error);
  if (error) error.code = responseErrorCode(typeof error.code === 'string' ? error.code : null);
  completeUsage(response);
}

function completeUsage(response: Record<string, unknown>): void {
  const usage = asRecord(response.usage);
  if (!usage) return;
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const input = asRecord(usage.input_tokens_details);
  usage.input_tokens_details = { ...input, cached_tokens: count(input?.cached_tokens), cache_write_tokens: count(input?.cache_write_tokens) };
  const output = asRecord(usage.output_tokens_details);
  usage.output_tokens_details = { ...output, reasoning_tokens: count(output?.reasoning_tokens) };
}

/**
 * Remembers each function call's name as its item is announced, and puts it on the call's
 * `response.function_call_arguments.done` when the upstream left it out. Only those two kinds of event are
 * parsed; every other event's data is returned as it came.
 */
export class FunctionCallNames {
  private readonly names = new Map<string, string>();

  /** The event's data, with `name` added where it was missing. */
  complete(type: string, data: string): string {
    if (type === 'response.output_item.added') {
      const item = asRecord(asRecord(parseJson(data))?.item);
      if (item?.type === 'function_call' && typeof item.id === 'string' && typeof item.name === 'string') this.names.set(item.id, item.name);
      return data;
    }
    if (type !== 'response.function_call_arguments.done') return data;
    // A garbled event (undefined here) goes on as it came.
    const event = asRecord(parseJson(data));
    const name = typeof event?.item_id === 'string' ? this.names.get(event.item_id) : undefined;
    return event && typeof event.name !== 'string' && name !== undefined ? JSON.stringify({ ...event, name }) : data;
  }
}
