/**
 * Reading and rewriting a request body's field by dotted path (`generationConfig.maxOutputTokens`): Gemini
 * keeps some settings one object down. Rewrites copy every object on the path and leave the body itself
 * as it was, since the client's body is also what a pass-through forwards and what tests compare.
 */

/** The value at `path`, or undefined when any object on the way is missing (or not an object). */
export function valueAt(body: Record<string, unknown>, path: string): unknown {
  let value: unknown = body;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** A copy of `body` with `value` at `path` (objects on the way created as needed); `undefined` removes the field. */
export function withValueAt(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const segments = path.split('.');
  const leaf = segments.pop()!;
  const copy = { ...body };
  let parent = copy;
  for (const segment of segments) {
    const next = parent[segment];
    parent[segment] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
    parent = parent[segment] as Record<string, unknown>;
  }
  if (value === undefined) delete parent[leaf];
  else parent[leaf] = value;
  return copy;
}
