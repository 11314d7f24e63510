/**
 * Provider-neutral token counting with the o200k_base encoding (GPT-4o and later). Other tokenizers differ
 * by a few percent, which is close enough for estimates and exact for the built-in model, which defines
 * its own counts with this encoding.
 *
 * Request counting rule, after OpenAI's cookbook ("How to count tokens with tiktoken"):
 * - every instruction counts as one system message and every message costs 3 tokens of framing
 *   (`<|start|>role<|message|>…<|end|>`), plus 3 tokens priming the reply (`<|start|>assistant<|message|>`);
 * - text, reasoning text, tool-call names and arguments, and tool-result content count as their tokens;
 * - an image counts a flat {@link IMAGE_TOKEN_ESTIMATE} (OpenAI's low-detail cost; we never fetch or
 *   measure images); a base64 text file counts its decoded text, any other file the same flat estimate;
 * - tool definitions and a JSON response schema count as their JSON text, since upstreams inject them
 *   into the prompt.
 * Redacted reasoning is opaque ciphertext whose token cost only the upstream knows; it counts as 0.
 */
import { decode, encode, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import type { ContentPart, ModelRequest } from './internal-representation.js';
import { assertNever } from './assert-never.js';

/** Framing tokens per message (OpenAI cookbook: `tokens_per_message = 3`). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the assistant's reply. */
export const REPLY_PRIMING_TOKENS = 3;
/** Flat cost of an image or an opaque file: OpenAI's base cost for a low-detail image. */
export const IMAGE_TOKEN_ESTIMATE = 85;

/**
 * Byte-pair merging takes time quadratic in the length of one pre-tokenized piece, and a piece is a run of
 * letters, of punctuation or of whitespace with no length limit: 32,000 `x` take over a second, and
 * a request body may be 32 MiB. Runs longer than this are encoded in slices of this length, which makes
 * counting linear in the text (0.6 s per MiB of random letters, the worst case we measured; 0.25 s per
 * MiB of prose) at the price of a token or so per slice. Runs up to this length, which covers words and
 * most identifiers and URLs, count exactly as tiktoken counts them.
 */
export const MAX_RUN_CHARS = 64;
const longRunSource = `\\S{${MAX_RUN_CHARS + 1},}|\\s{${MAX_RUN_CHARS + 1},}`;
const hasLongRun = new RegExp(longRunSource);
const longRuns = new RegExp(longRunSource, 'g');

/** Special-token text such as `<|endoftext|>` is plain text a user typed, not a control token. */
const asPlainText = { disallowedSpecial: new Set<string>() };

/**
 * Loads the o200k_base ranks now (about 250 ms of CPU) so the first request does not pay for it on the
 * event loop. Called at start-up when a built-in model is configured.
 */
export function warmTokenizer(): void {
  encode('warm');
}

/**
 * gpt-tokenizer remembers merged pieces in an LRU cache of 100,000 entries by default; with pieces of up
 * to {@link MAX_RUN_CHARS} characters a smaller one bounds its memory to a few megabytes.
 */
setMergeCacheSize(10_000);

/**
 * Encodes text to o200k_base token IDs, slicing runs longer than {@link MAX_RUN_CHARS} (see there).
 * Special-token text is encoded as plain text.
 */
export function encodeTokens(text: string): number[] {
  if (!hasLongRun.test(text)) return encode(text, asPlainText);
  const tokens: number[] = [];
  let start = 0;
  for (const match of text.matchAll(longRuns)) {
    appendTo(tokens, encode(text.slice(start, match.index), asPlainText));
    for (const slice of slices(match[0], MAX_RUN_CHARS)) appendTo(tokens, encode(slice, asPlainText));
    start = match.index + match[0].length;
  }
  appendTo(tokens, encode(text.slice(start), asPlainText));
  return tokens;
}

/** Cuts `run` into pieces of at most `length` UTF-16 units, never between the halves of a surrogate pair. */
function* slices(run: string, length: number): Generator<string> {
  let start = 0;
  while (start < run.length) {
    let end = Math.min(start + length, run.length);
    if (end < run.length && isHighSurrogate(run.charCodeAt(end - 1))) end--;
    yield run.slice(start, end);
    start = end;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `push(...items)` would pass every token as an argument and overflow the stack on a long text. */
function appendTo(target: number[], items: number[]): void {
  for (const item of items) target.push(item);
}

/** Decodes o200k_base token IDs; a cut inside a multi-byte character decodes to U+FFFD. */
export function decodeTokens(tokens: number[]): string {
  return decode(tokens);
}

/** Counts the tokens of a text, e.g. `countTextTokens('hello world') === 2`. */
export function countTextTokens(text: string): number {
  return text === '' ? 0 : encodeTokens(text).length;
}

/**
 * Cuts a text to at most `maxTokens` tokens. When the cut would split a multi-byte character, one token
 * fewer is kept, so the result is always an exact prefix of the text.
 *
 * @example truncateToTokens('one two three', 2) // → { text: 'one two', tokens: 2, truncated: true }
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; tokens: number; truncated: boolean } {
  const tokens = encodeTokens(text);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  for (let kept = Math.max(0, Math.floor(maxTokens)); kept > 0; kept--) {
    const prefix = decodeTokens(tokens.slice(0, kept));
    if (text.startsWith(prefix)) return { text: prefix, tokens: kept, truncated: true };
  }
  return { text: '', tokens: 0, truncated: true };
}

/**
 * Counts the prompt tokens of a request by the rule in this module's header: instructions, messages,
 * tool definitions and response schema, plus per-message framing and reply priming.
 */
export function countRequestTokens(request: ModelRequest): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const instruction of request.instructions) total += TOKENS_PER_MESSAGE + countTextTokens(instruction.text);
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE;
    for (const part of message.content) total += countPartTokens(part);
  }
  for (const tool of request.tools) {
    const { name, description, parameters } = tool;
    total += countTextTokens(JSON.stringify({ name, description, parameters }));
  }
  if (request.responseFormat.type === 'json_schema') {
    total += countTextTokens(JSON.stringify(request.responseFormat.schema));
  }
  return total;
}

function countPartTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return countTextTokens(part.text);
    case 'image':
      return IMAGE_TOKEN_ESTIMATE;
    case 'file':
      return countFileTokens(part);
    case 'tool_call':
      return countTextTokens(part.name) + countTextTokens(part.arguments);
    case 'tool_result':
      return part.content.reduce((sum, inner) => sum + countPartTokens(inner), 0);
    case 'reasoning':
      return countTextTokens(part.text);
    default:
      return assertNever(part);
  }
}

const TEXT_MEDIA_TYPE = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-ndjson)\b)/;

/** Text files are sent to the model as their text, so they cost what their text costs. */
function countFileTokens(part: Extract<ContentPart, { type: 'file' }>): number {
  const { source } = part;
  if (source.kind === 'base64' && TEXT_MEDIA_TYPE.test(source.mediaType)) {
    return countTextTokens(Buffer.from(source.data, 'base64').toString('utf8'));
  }
  return IMAGE_TOKEN_ESTIMATE;
}
