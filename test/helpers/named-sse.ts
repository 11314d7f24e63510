import assert from 'node:assert/strict';

/** One frame of an event stream with named events (Anthropic, Responses): the `event:` line and the parsed `data:` line. */
export interface NamedFrame<T> {
  event: string;
  data: T;
}

/**
 * Splits an event-stream body whose every frame must be exactly one `event:` line and one `data:` line (the
 * gateway's writer sends nothing else; the Anthropic SDKs drop frames without `event:`). A frame of any
 * other form (a comment, a `[DONE]`, no `event:`) or a missing final blank line fails here.
 */
export function parseNamedSse<T>(text: string): Array<NamedFrame<T>> {
  assert.ok(text.endsWith('\n\n'), 'the stream ends with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const match = /^event: ([^\n]+)\ndata: ([^\n]+)$/.exec(frame);
      assert.ok(match, `a frame is one event: line and one data: line, got ${JSON.stringify(frame.slice(0, 200))}`);
      return { event: match[1]!, data: JSON.parse(match[2]!) as T };
    });
}
