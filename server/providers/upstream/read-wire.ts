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
export function readWire<Schema extends z.ZodType>(schema: Schema, value: unknown, source: WireSource, what: string): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // Read again for the message: an error map on every parse costs more than the parse itself.
  const issues = schema.safeParse(value, { error: plainMessage }).error?.issues ?? result.error.issues;
  const problems = issues.slice(0, 3).map((issue) => (issue.path.length ? `${fieldPath(issue.path)}: ${issue.message}` : issue.message));
  const { providerId, wire } = source;
  throw new GatewayError('upstream', `The upstream provider '${providerId}' (${wire}) sent a malformed ${what}: ${problems.join('; ')}`, {
    upstream: { providerId },
  });
}

/**
 * Plainer words than zod's defaults where they say little: a missing field is "required" (not "expected
 * object, received undefined"), and a field of one of several types (OpenAI's `content`: text or parts)
 * says which, where zod says only "Invalid input".
 */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code !== 'invalid_union') return undefined;
  const expected = issue.errors.map((option) => (option.length === 1 && option[0]!.code === 'invalid_type' ? option[0]!.expected : undefined));
  if (expected.includes(undefined)) return undefined;
  const received = issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input;
  return `Invalid input: expected ${expected.join(' or ')}, received ${received}`;
}

/** `['choices', 0, 'delta']` → `choices[0].delta`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((key, position) => (typeof key === 'number' ? `[${key}]` : `${position === 0 ? '' : '.'}${String(key)}`)).join('');
}
