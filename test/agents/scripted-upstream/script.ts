/**
 * What a scripted fake upstream answers, whatever its protocol. A coding agent's run is then the same on every
 * route: the first turn asks the client to call one of its own tools, the turn that carries the tool's result
 * gets a fixed final text, and the client's side requests (titles, summaries, checks) get a short text. A
 * request for a compaction summary gets a fixed summary, and a conversation that carries it back counts as
 * one with the tool's result (it is in the summary). Deciding from the request alone, not from a count of turns, keeps the script right however many side
 * requests a client makes and in whatever order.
 */

/** The tool call the first turn asks for: a tool the client offers, with arguments it accepts. */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface AgentScript {
  toolCall: ScriptedToolCall;
}

/** The answer once the tool's result has come back; the client must print it. */
export const FINAL_TEXT = 'Scripted final answer: the tool result arrived.';

/** What the script needs to know of a request, read by each protocol's module. */
export interface RequestView extends CompactionView {
  stream: boolean;
  /** Names of the function tools offered (namespaced ones under their own names). */
  toolNames: string[];
  /** Every tool result in the conversation, as text (JSON for structured results). */
  toolResults: string[];
}

/**
 * Compaction, the same in every protocol's words: a request that asks for the conversation's summary, and a
 * conversation that carries the summary the script gave (a compacted one: its tool result is in the summary).
 */
export interface CompactionView {
  /**
   * The request asks for a summary in text: its last user turn holds the compaction prompt Codex's
   * local compaction sends and the gateway asks a model without compaction of its own (both Codex's
   * codex-rs/core/templates/compact/prompt.md). A Responses `compaction_trigger` is answered apart
   * (openai-responses-compaction.ts).
   */
  asksForSummary: boolean;
  /** The conversation holds the script's summary: as text, or in the `compaction` item the fake made. */
  carriesSummary: boolean;
}

/** The words the compaction prompt starts with. */
export const COMPACTION_PROMPT_START = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';

/** The summary the script gives when asked for one: once it is back, the task is done (the tool result is in it). */
export const COMPACTION_SUMMARY = 'Scripted compaction summary: the file was read and its tool result arrived.';

/** Compaction read from a request's last user text and its whole body (where the summary is looked for as sent). */
export function compactionView(lastUserText: string, rawBody: string, summaryMarks: string[] = []): CompactionView {
  return {
    asksForSummary: lastUserText.includes(COMPACTION_PROMPT_START),
    carriesSummary: [COMPACTION_SUMMARY, ...summaryMarks].some((mark) => rawBody.includes(mark)),
  };
}

export type Decision = { kind: 'tool_call'; name: string; arguments: string } | { kind: 'text'; text: string };

/** The short text side requests get; never the final text, so a client cannot pass by printing it. */
export const SIDE_TEXT = 'Scripted side answer.';

export function decideTurn(script: AgentScript, view: RequestView): Decision {
  if (view.asksForSummary) return { kind: 'text', text: COMPACTION_SUMMARY };
  if (view.toolResults.length > 0 || view.carriesSummary) return { kind: 'text', text: FINAL_TEXT };
  if (view.toolNames.includes(script.toolCall.name)) {
    return { kind: 'tool_call', name: script.toolCall.name, arguments: JSON.stringify(script.toolCall.arguments) };
  }
  return { kind: 'text', text: SIDE_TEXT };
}

/** Text of a tool result in any of the protocols' shapes: a string, content blocks, or structured JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((block) => (typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : JSON.stringify(block))).join('\n');
  return JSON.stringify(content);
}

/** The text parts of a message's content, in any protocol's shape (a string, or parts with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? [(part as { text: string }).text] : [])).join('\n');
}
