import type { ReasoningPart } from '../../core/internal-representation.js';

/**
 * What a reasoning item must carry back to its upstream: Anthropic's thinking signature (or its redacted
 * thinking) and Gemini's thought signature. It travels in the item's `encrypted_content`, the field OpenAI
 * made for opaque reasoning state, so it survives both `previous_response_id` (the gateway's store keeps
 * the item) and stateless clients that echo items back (Codex with `store: false`, the AI SDK).
 *
 * The prefix tells the gateway's own blobs from OpenAI's encrypted reasoning, which only OpenAI can read.
 */
const prefix = 'ugw1.';

type ReasoningState = Pick<ReasoningPart, 'signature' | 'redacted'>;

/** Undefined when there is nothing to carry. */
export function encodeReasoningState(part: ReasoningState): string | undefined {
  if (!part.signature && !part.redacted) return undefined;
  const state = { ...(part.signature ? { signature: part.signature } : {}), ...(part.redacted ? { redacted: part.redacted } : {}) };
  return prefix + Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** The state in a gateway blob; undefined for anything else (OpenAI's own encrypted content, or garbage). */
export function decodeReasoningState(encrypted: string): ReasoningState | undefined {
  if (!encrypted.startsWith(prefix)) return undefined;
  try {
    const state = JSON.parse(Buffer.from(encrypted.slice(prefix.length), 'base64url').toString('utf8')) as Record<string, unknown>;
    return {
      ...(typeof state.signature === 'string' ? { signature: state.signature } : {}),
      ...(typeof state.redacted === 'string' ? { redacted: state.redacted } : {}),
    };
  } catch {
    return undefined;
  }
}
