declare const encodes: unique symbol;

/**
 * JSON text of a `Data`, as an upstream of the client's own protocol sent it: it goes out as it came,
 * never parsed and re-serialized. Only core/upstream-answer.ts makes one (a string the compiler cannot check).
 */
export type UpstreamText<Data> = string & { readonly [encodes]: Data };

/**
 * One frame of a streamed answer: its data and its SSE event name. `Data` is the operation's stream event
 * schema (a chat completion chunk, a Responses event, ...): an object to encode, a string the protocol sends
 * as it is (`[DONE]`), or an upstream's own text of one.
 */
export interface StreamFrame<Data> {
  data: Data | UpstreamText<Data>;
  event?: string;
}
