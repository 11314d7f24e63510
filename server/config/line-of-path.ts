import { isNode, LineCounter, parseDocument } from 'yaml';

/**
 * The line of the YAML `text` where the value at `path` (a zod issue's path) stands, so that a config
 * error points the operator at the file's line. A value the file leaves out (a missing required field)
 * is placed at the nearest enclosing one the file has; undefined when not even the root is there.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[]): number | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  for (let length = path.length; length >= 0; length--) {
    const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
