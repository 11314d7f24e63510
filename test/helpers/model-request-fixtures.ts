import type { Message, ModelRequest } from '../../server/core/internal-representation.js';

/** Test helper: a minimal valid ModelRequest with the given messages and overrides. */
export function modelRequest(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'builtin',
    instructions: [],
    messages,
    tools: [],
    toolChoice: { type: 'auto' },
    responseFormat: { type: 'text' },
    stopSequences: [],
    ...extra,
  };
}

/** Test helper: a user message with one text part. */
export const userSays = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
