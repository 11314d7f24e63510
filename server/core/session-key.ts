import type { IncomingHttpHeaders } from 'node:http';

/**
 * Where a request says which session (a run of turns sharing a growing prompt) it belongs to, first match
 * wins. The router sends a session's turns to one deployment while it is healthy, so that the provider's
 * prompt cache, which lives per deployment (per account and often per machine), stays warm.
 *
 * 1. The body's prompt cache key (`prompt_cache_key` in Chat Completions and Responses): the client's own
 *    name for what shares a prompt cache, which OpenAI routes on itself; Codex sends its thread ID here.
 * 2. The body's conversation (Responses' `conversation`): a conversation's turns share their prefix.
 * 3. `x-claude-code-session-id`: Claude Code's session (test/fixtures/clients/claude-code/).
 * 4. `session-id`, then `session_id`: Codex's session, the hyphenated name in current releases
 *    (test/fixtures/clients/codex/), the underscored one in older ones (codex-rs build_conversation_headers).
 * 5. `x-session-affinity`: OpenCode's header, which asks for exactly this (test/fixtures/clients/opencode/).
 * 6. The body's end user (`metadata.user_id`; in Messages the one hint Anthropic's API has): Claude Code
 *    writes its session ID into it, other clients an end user, whose requests share prefixes too.
 *
 * Body fields come first: they say what shares a cache for this very request, while a client's session
 * header covers its side requests on other prompts too. Which body field holds which is the client
 * protocol's to say (its `sessionFields`, declared in its folder); the headers are the clients', whatever
 * protocol they speak. Gemini's API has no such field and Gemini CLI sends no session header: its requests
 * keep the weighted random choice.
 */
const sessionHeaders = ['x-claude-code-session-id', 'session-id', 'session_id', 'x-session-affinity'] as const;

/**
 * Where a client protocol's body names a session, one reader per field, each returning the field as it
 * came (the key checks it is a usable ID); a protocol whose API has no such field declares none.
 */
export interface SessionFields {
  /** The client's own name for what shares a prompt cache (source 1 above). */
  promptCacheKey?(body: Record<string, unknown>): unknown;
  /** The ID of the conversation the request continues (source 2). */
  conversationId?(body: Record<string, unknown>): unknown;
  /** The end user the request is for, read after the session headers (source 6). */
  endUser?(body: Record<string, unknown>): unknown;
}

/** Longer values are no session ID anyone sends; they are not worth hashing per deployment. */
const maxLength = 512;

/**
 * The request's session key, scoped by account (`<account>\0<session>`), or undefined when the request names
 * no session. Scoped because two accounts share no provider cache, and one account must not be able to steer
 * (or learn) where another's sessions go by sending the same ID. `fields` are the client protocol's.
 */
export function sessionKeyOf(headers: IncomingHttpHeaders, body: unknown, accountId: string, fields: SessionFields = {}): string | undefined {
  const session = sessionOf(headers, typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined, fields);
  return session === undefined ? undefined : `${accountId}\0${session}`;
}

function sessionOf(headers: IncomingHttpHeaders, body: Record<string, unknown> | undefined, fields: SessionFields): string | undefined {
  const read = (field: ((body: Record<string, unknown>) => unknown) | undefined) => (body && field ? usable(field(body)) : undefined);
  const fromBody = read(fields.promptCacheKey) ?? read(fields.conversationId);
  if (fromBody !== undefined) return fromBody;
  for (const name of sessionHeaders) {
    const value = usable(headers[name]);
    if (value !== undefined) return value;
  }
  return read(fields.endUser);
}

function usable(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined;
}
