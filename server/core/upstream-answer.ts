import type { UpstreamText } from './stream-frame.js';

/**
 * An answer of an upstream that speaks the client's own protocol, forwarded as it came, as the answer of
 * the client's operation: its whole JSON body (`Body`), or the text of one stream frame (`Data`).
 *
 * The one place the compiler takes the gateway's word for a shape. The upstream's wire format is the
 * provider's contract, which the client's operation in openapi/ copies: the gateway does not re-read
 * (or re-serialize) what an upstream of the same protocol sent, which would cost every frame of every
 * pass-through stream a parse, and would drop the fields the provider added before the spec knew them.
 * The tests hold forwarded answers to the spec instead: whole bodies through the response validator
 * (http/openapi-validator.ts, on in tests and development), stream frames against the operation's stream
 * event schema (test/helpers/contract-schemas.ts); production skips both for speed.
 *
 * @example
 * forwarded: { json: (answer) => asUpstreamAnswer<SuccessBody<'createMessage'>>(answer), stream: ... }
 */
export function asUpstreamAnswer<Body>(answer: Record<string, unknown>): Body;
export function asUpstreamAnswer<Data>(frameText: string): UpstreamText<Data>;
export function asUpstreamAnswer(answer: Record<string, unknown> | string): unknown {
  return answer;
}
