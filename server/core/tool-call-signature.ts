/**
 * Gemini 3 returns a `thoughtSignature` with each function call and refuses the next turn unless it comes
 * back. Chat Completions, Anthropic and Responses clients have no field for it, but they all echo the tool
 * call ID verbatim, so the signature rides inside the ID: `<id>__ts_<signature as base64url of its UTF-8>`
 * (re-encoding the text, not decoding it, so even a non-canonical signature comes back byte for byte).
 * Stateless, so any gateway instance can decode what another encoded.
 */
const marker = '__ts_';

export function encodeToolCallId(id: string, signature: string | undefined): string {
  if (!signature) return id;
  return `${id}${marker}${Buffer.from(signature, 'utf8').toString('base64url')}`;
}

/** The plain ID and, if one was folded in, the signature exactly as Gemini sent it. */
export function decodeToolCallId(encoded: string): { id: string; signature?: string } {
  const at = encoded.indexOf(marker);
  if (at < 0) return { id: encoded };
  const signature = Buffer.from(encoded.slice(at + marker.length), 'base64url').toString('utf8');
  return { id: encoded.slice(0, at), signature: signature || undefined };
}
