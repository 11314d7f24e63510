import type { RequestContext } from '../../core/request-context.js';
import type { StreamedSoFar } from '../../core/streamed-so-far.js';
import type { Usage } from '../../core/internal-representation.js';
import { estimatePromptTokens, estimateTokensOfCharacters } from './estimate-prompt-tokens.js';
import type { MeteredAnswer } from './metered-request.js';
import type { MeteredEndpoint } from './metered-endpoint.js';
import { namedOutputCap } from './plan-reservation.js';

/**
 * What a request whose client left before its answer was complete is charged, once the gateway has read
 * the upstream on for it (core/request-work.ts); undefined when the usage the upstream reported stands as
 * it is. A client that leaves must never pay less than the upstream bills, however early it leaves:
 *
 * - the upstream's answer came whole: what it reported (plus any output sent after its last report);
 * - it did not (the drain's bound cut it, shutdown did, or the upstream failed mid-stream): the request's
 *   worst case, as its reservation counted it (the prompt estimate and the output cap: the one the client
 *   named, the one the gateway granted, or else `limits.default_output_tokens`), never less than what was
 *   reported or sent, marked estimated;
 * - no answer began and nothing was cut (a refusal, an upstream that failed before answering): as for a
 *   client that stayed.
 *
 * @param answer the answer the routed call began (metered-request.ts), undefined when none did
 * @param defaultOutputTokens the worst case's output when the request has no cap
 */
export function abandonedUsage(
  body: unknown,
  endpoint: MeteredEndpoint,
  context: RequestContext,
  answer: MeteredAnswer | undefined,
  reported: Usage | undefined,
  defaultOutputTokens: number,
): Usage | undefined {
  const streamed = answer?.streamed;
  const sent = streamed && deliveredUsage(body, reported, streamed);
  const cut = !answer?.complete && (streamed !== undefined || context.work.stopped);
  // Images are charged per image, embeddings generate nothing: neither has an output cap to charge.
  if (!cut || !endpoint.generatesOutput || endpoint.protocol === 'openai-images') return sent;
  const known = sent ?? reported;
  // What the upstream reported of the prompt's pricing (cache writes, the tier it served at) still holds.
  return {
    ...known,
    inputTokens: Math.max(estimatePromptTokens(body), known?.inputTokens ?? 0),
    cachedInputTokens: known?.cachedInputTokens ?? 0,
    outputTokens: Math.max(namedOutputCap(endpoint.outputCap, body) ?? defaultOutputTokens, known?.outputTokens ?? 0),
    reasoningTokens: known?.reasoningTokens ?? 0,
    estimated: true,
  };
}

/**
 * The usage reported so far plus the output sent after that report, counted from the generated characters
 * that went out (text, reasoning, tool arguments; core/tally-stream.ts). Characters become tokens at the
 * ~4 characters a token of the reservation's prompt estimate, not by the token counter: the count is kept
 * on every streamed event, where nothing may be buffered or tokenized, and the counter would need the
 * text. Undefined when nothing was sent after the latest report: the reported usage stands as it is.
 */
function deliveredUsage(body: unknown, reported: Usage | undefined, streamed: StreamedSoFar): Usage | undefined {
  const unreported = estimateTokensOfCharacters(streamed.deliveredSinceUsage());
  if (unreported === 0) return undefined;
  return {
    ...reported,
    // Anthropic reports the prompt at the start of a stream; without such a report the prompt is estimated too.
    inputTokens: reported?.inputTokens ?? estimatePromptTokens(body),
    cachedInputTokens: reported?.cachedInputTokens ?? 0,
    outputTokens: (reported?.outputTokens ?? 0) + unreported,
    reasoningTokens: reported?.reasoningTokens ?? 0,
    estimated: true,
  };
}
