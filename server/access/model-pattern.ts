/**
 * Whether a model ID matches an allow-list entry: the exact ID, or a `prefix/*` pattern, which matches
 * every ID that starts with `prefix/` (and nothing else: `openai/*` does not match `openai-mini`). `*`
 * alone matches everything. Matching is on the registry's canonical ID, after the protocol's own form
 * (`models/…`, URL-encoded slashes) has been undone, so no alias spelling gets around it.
 */
export function matchesModelPattern(pattern: string, modelId: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) return modelId.startsWith(pattern.slice(0, -1));
  return pattern === modelId;
}
