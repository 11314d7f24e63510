import type { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';

/** Which upstream sent what is being read, for the error when it is malformed. */
export interface WireSource {
  /** The config's provider ID. */
  providerId: string;
  /** The wire format the upstream speaks (`openai`, `anthropic`, `gemini`, `bedrock`), which Azure and Vertex share. */
  wire: string;
}

/**
 * One decoded upstream event read through its schema, once, where it is decoded: the converters then use
 * typed fields instead of casts. A value that does not fit (`choices` that is not an array, a delta without
 * its text, counts that are strings) is the upstream's failure, with no status so the router may still
 * retry while nothing has reached the client, and a message that names the provider, the event and the
 * fields at fault, never their values.
 *
 * @example
 * const chunk = readWire(chatChunkSchema, jsonEvent(data, providerId), { providerId, wire: 'openai' }, 'chunk');
 */
export function readWire<Schema extends z.ZodType>(schema: Schema, value: unknown, source: WireSource, what: string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // Read again for the message: an error map on every parse costs more than the parse itself.
  const issues = schema.safeParse(value, { error: requiredMessage }).error?.issues ?? result.error.issues;
  const problems = issues.slice(0, 3).map((issue) => (issue.path.length ? `${fieldPath(issue.path)}: ${issue.message}` : issue.message));
  const { providerId, wire } = source;
  throw new GatewayError('upstream', `The upstream provider '${providerId}' (${wire}) sent a malformed ${what}: ${problems.join('; ')}`, {
    upstream: { providerId },
  });
}

/** zod's default for a missing field is "expected object, received undefined"; "required" says it plainly. */
function requiredMessage(issue: z.core.$ZodRawIssue): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined;
}

/** `['choices', 0, 'delta']` → `choices[0].delta`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((key, position) => (typeof key === 'number' ? `[${key}]` : `${position === 0 ? '' : '.'}${String(key)}`)).join('');
}
