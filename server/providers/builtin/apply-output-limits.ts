/**
 * Applies `stopSequences` and `maxOutputTokens` to what the built-in model would say, the way a real model
 * stops: at whichever limit it reaches first. Pure.
 */
import { countTextTokens, truncateToTokens } from '../../core/token-counter.js';
import type { FinishReason } from '../../core/internal-representation.js';

/** Text after limits, with why it ended and what it cost. */
export interface LimitedText {
  text: string;
  finishReason: FinishReason;
  stopSequence?: string;
  outputTokens: number;
}

/**
 * Cuts `text` before the earliest stop sequence (finish `stop_sequence`), then to `maxOutputTokens`
 * tokens (finish `length`); otherwise finish `stop`. Empty stop sequences are ignored: they would match
 * before the first character.
 *
 * @example limitText('one two. three', ['.'], undefined) // → { text: 'one two', finishReason: 'stop_sequence', … }
 */
export function limitText(text: string, stopSequences: string[], maxOutputTokens: number | undefined): LimitedText {
  const stop = findEarliestStop(text, stopSequences);
  const result: LimitedText = stop
    ? { text: text.slice(0, stop.index), finishReason: 'stop_sequence', stopSequence: stop.sequence, outputTokens: 0 }
    : { text, finishReason: 'stop', outputTokens: 0 };
  if (maxOutputTokens !== undefined) {
    const cut = truncateToTokens(result.text, maxOutputTokens);
    if (cut.truncated) return { text: cut.text, finishReason: 'length', outputTokens: cut.tokens };
  }
  return { ...result, outputTokens: countTextTokens(result.text) };
}

/** Tool-call arguments after the token limit, with why the call ended and what it cost. */
export interface LimitedToolCall {
  arguments: string;
  finishReason: FinishReason;
  outputTokens: number;
}

/**
 * A tool call costs the tokens of its name plus its arguments. Over `maxOutputTokens` the arguments are
 * cut (leaving invalid JSON) and the finish is `length`, as real models do when they run out mid-call.
 */
export function limitToolCall(name: string, args: string, maxOutputTokens: number | undefined): LimitedToolCall {
  const nameTokens = countTextTokens(name);
  const argumentTokens = countTextTokens(args);
  if (maxOutputTokens === undefined || nameTokens + argumentTokens <= maxOutputTokens) {
    return { arguments: args, finishReason: 'tool_calls', outputTokens: nameTokens + argumentTokens };
  }
  const cut = truncateToTokens(args, Math.max(0, maxOutputTokens - nameTokens));
  return { arguments: cut.text, finishReason: 'length', outputTokens: nameTokens + cut.tokens };
}

function findEarliestStop(text: string, stopSequences: string[]): { index: number; sequence: string } | undefined {
  let earliest: { index: number; sequence: string } | undefined;
  for (const sequence of stopSequences) {
    if (sequence === '') continue;
    const index = text.indexOf(sequence);
    if (index !== -1 && (earliest === undefined || index < earliest.index)) earliest = { index, sequence };
  }
  return earliest;
}
