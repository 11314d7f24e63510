import type { Message, ModelRequest } from '../../core/internal-representation.js';

/**
 * What the gateway asks a model that has no compaction of its own, after the conversation: Codex's own
 * compaction prompt (codex-rs/core/templates/compact/prompt.md, openai/codex), in its words, as it is the
 * prompt Codex's local compaction uses for every provider.
 */
export const summarizingInstruction = [
  'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.',
  '',
  'Include:',
  '- Goal / user objective',
  '- Current progress and key decisions made',
  '- Important context, constraints, or user preferences',
  '- What remains to be done (clear next steps)',
  '- Any critical data, examples, or references needed to continue',
  '',
  'Be concise, structured, and focused on helping the next LLM seamlessly continue the work.',
].join('\n');

/**
 * The conversation as a request for its summary: the same model, instructions and history, the
 * summarizing instruction as the last user turn (joined to a user turn that ends the history, as Anthropic
 * wants turns to alternate), and the tools kept but not to be called (a history with tool calls needs its
 * tools declared for Anthropic) and no response format, so the answer is plain text.
 */
export function summarizingRequest(request: ModelRequest): ModelRequest {
  const ask = { type: 'text' as const, text: summarizingInstruction };
  const last = request.messages.at(-1);
  const messages: Message[] =
    last?.role === 'user' ? [...request.messages.slice(0, -1), { ...last, content: [...last.content, ask] }] : [...request.messages, { role: 'user', content: [ask] }];
  return {
    ...request,
    messages,
    toolChoice: request.tools.length > 0 ? { type: 'none' } : request.toolChoice,
    responseFormat: { type: 'text' },
  };
}

/** The summary in a model's answer: its text, reasoning left out. */
export function summaryText(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('');
}
