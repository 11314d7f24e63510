/**
 * The words of the built-in model's plain answers: an echo of the user's last message, or a summary of
 * the tool results it was just given. Pure.
 */
import type { ContentPart, Message, ToolResultPart } from '../../core/internal-representation.js';

/** What the model says when there is no user text to echo. */
export const NO_TEXT_REPLY = 'Hello! I am the built-in offline model: send me some text and I will repeat it.';

/** The last message written by the user, if any. */
export function findLastUserMessage(messages: Message[]): Message | undefined {
  return messages.findLast((message) => message.role === 'user');
}

/** The text parts of a message (or tool result), joined with a space. */
export function joinText(parts: ContentPart[]): string {
  return parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join(' ');
}

/**
 * Echoes the last user message: `You said: <text>`, noting attachments the model cannot read back.
 *
 * @example composeEcho([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]) // → 'You said: hi'
 */
export function composeEcho(messages: Message[]): string {
  const parts = findLastUserMessage(messages)?.content ?? [];
  const text = joinText(parts);
  return (text === '' ? NO_TEXT_REPLY : `You said: ${text}`) + describeAttachments(parts);
}

/**
 * Summarises the tool results in `message`: `Tool get_weather returned: {"temp":21}`, several joined with
 * `; `. The tool's name comes from the assistant's matching tool call, else from the result itself (Gemini
 * names results), else the call ID stands in.
 */
export function describeToolResults(messages: Message[], message: Message): string {
  const results = message.content.filter((part): part is ToolResultPart => part.type === 'tool_result');
  return results
    .map((result) => {
      const name = findToolCallName(messages, result.callId) ?? result.name ?? result.callId;
      const verb = result.isError ? 'failed with' : 'returned';
      return `Tool ${name} ${verb}: ${joinText(result.content)}${describeAttachments(result.content)}`;
    })
    .join('; ');
}

/** True when the message carries at least one tool result. */
export function hasToolResults(message: Message | undefined): message is Message {
  return message?.content.some((part) => part.type === 'tool_result') ?? false;
}

function findToolCallName(messages: Message[], callId: string): string | undefined {
  for (const message of messages.toReversed()) {
    if (message.role !== 'assistant') continue;
    const call = message.content.find((part) => part.type === 'tool_call' && part.id === callId);
    if (call?.type === 'tool_call') return call.name;
  }
  return undefined;
}

/** ` (plus 1 image and 2 files)`, or '' when there are none. */
function describeAttachments(parts: ContentPart[]): string {
  const images = parts.filter((part) => part.type === 'image').length;
  const files = parts.filter((part) => part.type === 'file').length;
  const counted = [plural(images, 'image'), plural(files, 'file')].filter((entry) => entry !== '');
  return counted.length === 0 ? '' : ` (plus ${counted.join(' and ')})`;
}

function plural(count: number, noun: string): string {
  if (count === 0) return '';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
