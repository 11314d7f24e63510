/**
 * Makes a client's request fit to keep in the repository: its own long texts (system prompts, instructions,
 * tool descriptions, injected context) become short placeholders, keys are dropped, and the run's temporary
 * folder is written as a fixed one, so a re-recording changes only what the client changed. Structure,
 * fields, tool names and schemas stay as sent.
 */
import { RECORDED_RUN_ROOT } from './client-recording.js';

/** Longer strings are the client's prose, not values the gateway reads. */
const MAX_TEXT = 200;
/** Tool and parameter descriptions are prose too, and the bulk of every request. */
const MAX_DESCRIPTION = 60;

/** Credentials, and what the transport recomputes on replay. */
const DROPPED_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'host', 'content-length', 'connection']);

export function cutHeaders(headers: Record<string, string>, runRoot: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !DROPPED_HEADERS.has(name))
      .map(([name, value]) => [name, value.replaceAll(runRoot, RECORDED_RUN_ROOT)]),
  );
}

/**
 * `keep` marks texts kept whole however long: the tool results, which a replay checks reach the upstream.
 */
export function cutBody(value: unknown, runRoot: string, keep: string, key = ''): unknown {
  if (typeof value === 'string') {
    const text = value.replaceAll(runRoot, RECORDED_RUN_ROOT);
    const limit = key === 'description' ? MAX_DESCRIPTION : MAX_TEXT;
    return text.length > limit && !text.includes(keep) ? `[${text.length} characters of the client's own text, cut]` : text;
  }
  if (Array.isArray(value)) return value.map((item) => cutBody(item, runRoot, keep, key));
  if (typeof value === 'object' && value !== null) {
    // A JSON Schema's `properties` are named by the tool's author: a property called `description` is no prose.
    const inSchemaProperties = key === 'properties';
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, cutBody(item, runRoot, keep, inSchemaProperties ? '' : name)]));
  }
  return value;
}
