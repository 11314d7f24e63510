import type { Instruction, Message, ModelRequest } from './internal-representation.js';

/** A user or assistant turn: what is left of the conversation once system messages are folded. */
export type ConversationMessage = Message & { role: 'user' | 'assistant' };

/** A request whose instructions are all up front. */
export type FoldedRequest = ModelRequest & { messages: ConversationMessage[] };

const isConversation = (message: Message): message is ConversationMessage => message.role !== 'system';

/**
 * The request with its mid-conversation `system` messages moved, in order, to the end of its instructions:
 * for upstreams that take instructions only up front (Anthropic's `system`, Gemini's `systemInstruction`, the
 * built-in model). Their position is lost, their words are not. The request itself is not modified.
 */
export function foldSystemMessages(request: ModelRequest): FoldedRequest {
  const instructions: Instruction[] = [...request.instructions];
  const messages: ConversationMessage[] = [];
  for (const message of request.messages) {
    if (isConversation(message)) messages.push(message);
    else instructions.push(...message.content.flatMap((part) => (part.type === 'text' && part.text !== '' ? [{ text: part.text, ...(part.cache ? { cache: part.cache } : {}) }] : [])));
  }
  return { ...request, instructions, messages };
}

/**
 * Where a client's system or developer text goes: before the conversation has begun it is an instruction,
 * after that a `system` message in its place, so upstreams that can keep the order (OpenAI) do.
 */
export function placeSystemText(instructions: Instruction[], messages: Message[], text: string): void {
  if (text === '') return;
  if (messages.length === 0) instructions.push({ text });
  else messages.push({ role: 'system', content: [{ type: 'text', text }] });
}
