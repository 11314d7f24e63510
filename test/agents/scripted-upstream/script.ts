/**
 * What a scripted fake upstream answers, whatever its protocol. A coding agent's run is then the same on every
 * route: the first turn asks the client to call one of its own tools, the turn that carries the tool's result
 * gets a fixed final text, and the client's side requests (titles, summaries, checks) get a short text.
 * Deciding from the request alone, not from a count of turns, keeps the script right however many side
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
export interface RequestView {
  stream: boolean;
  /** Names of the function tools offered (namespaced ones under their own names). */
  toolNames: string[];
  /** Every tool result in the conversation, as text (JSON for structured results). */
  toolResults: string[];
}

export type Decision = { kind: 'tool_call'; name: string; arguments: string } | { kind: 'text'; text: string };

/** The short text side requests get; never the final text, so a client cannot pass by printing it. */
export const SIDE_TEXT = 'Scripted side answer.';

export function decideTurn(script: AgentScript, view: RequestView): Decision {
  if (view.toolResults.length > 0) return { kind: 'text', text: FINAL_TEXT };
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
