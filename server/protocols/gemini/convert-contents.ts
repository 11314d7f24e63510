import type { ContentPart, Message, ReasoningPart, ToolResultPart } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { asRecord } from '../../providers/upstream/parse-json.js';
import { decodeReasoningState } from '../openai-responses/reasoning-state.js';
import type { GeminiContent, GeminiPart } from './wire-types.js';

/** A function call of the conversation that no functionResponse has answered yet. */
interface OpenCall {
  id: string;
  name: string;
  /** The `functionCall.id` the client sent, if any (the AI SDK and Vertex send one). */
  clientId?: string;
}

/**
 * Gemini `contents` → internal messages. `user` (and the legacy `function`) turns become user messages,
 * `model` turns assistant messages; consecutive turns of one role merge, because SDKs that record a
 * streamed answer chunk by chunk replay it as several model turns in a row.
 *
 * Gemini function calls carry no IDs, so each gets one from its position (`call_<content>_<part>`, stable
 * across turns since history only grows), and each functionResponse answers the first open call of the
 * same name, in order (or the call whose client-sent `id` it repeats). A `thoughtSignature` on a call
 * stays with it (Gemini 3 wants it back); thought parts become reasoning, consecutive ones joined so a
 * signature covers the whole text it was given for, and a model turn's text parts join into one.
 * Dropped: media in model turns, code-execution parts, `videoMetadata`, and signatures on plain text
 * parts (Google documents those as optional to return).
 */
export function convertContents(contents: readonly GeminiContent[]): Message[] {
  const messages: Message[] = [];
  let open: OpenCall[] = [];
  contents.forEach((content, index) => {
    const role = roleOf(content.role, index);
    const previous = messages.at(-1);
    // A new model turn answers the results before it; calls left open by older turns are not matched again.
    if (role === 'assistant' && previous?.role !== 'assistant') open = [];
    const message: Message = previous?.role === role ? previous : { role, content: [] };
    if (message !== previous) messages.push(message);
    (content.parts ?? []).forEach((part, partIndex) => {
      const param = `contents[${index}].parts[${partIndex}]`;
      const converted = role === 'assistant' ? modelPart(part, param, `call_${index}_${partIndex}`, open) : userPart(part, param, `call_${index}_${partIndex}`, open);
      if (converted) appendPart(message.content, converted, role);
    });
  });
  return messages.filter((message) => message.content.length > 0);
}

function roleOf(role: string | undefined, index: number): Message['role'] {
  switch (role) {
    case undefined:
    case 'user':
    case 'function':
      return 'user';
    case 'model':
      return 'assistant';
    default:
      throw new GatewayError('invalid_request', `Please use a valid role: user, model (contents[${index}].role is '${role}').`, {
        param: `contents[${index}].role`,
      });
  }
}

function modelPart(part: GeminiPart, param: string, positionId: string, open: OpenCall[]): ContentPart | undefined {
  if (part.functionCall) {
    const { name, args, id: clientId } = part.functionCall;
    open.push({ id: positionId, name, ...(clientId && { clientId }) });
    return {
      type: 'tool_call',
      id: positionId,
      name,
      arguments: JSON.stringify(args ?? {}),
      ...(part.thoughtSignature && { signature: part.thoughtSignature }),
    };
  }
  if (part.functionResponse) throw misplaced(param, 'functionResponse', 'user');
  if (typeof part.text !== 'string') return undefined;
  if (part.thought === true) return reasoningPart(part.text, part.thoughtSignature);
  return part.text === '' ? undefined : { type: 'text', text: part.text };
}

function userPart(part: GeminiPart, param: string, positionId: string, open: OpenCall[]): ContentPart | undefined {
  if (part.functionResponse) return toolResult(part.functionResponse, positionId, open);
  if (part.functionCall) throw misplaced(param, 'functionCall', 'model');
  if (typeof part.text === 'string') return part.text === '' ? undefined : { type: 'text', text: part.text };
  return mediaPart(part);
}

/** Inline bytes and file URIs: images by their media type, anything else as a file. */
function mediaPart(part: Pick<GeminiPart, 'inlineData' | 'fileData'>): ContentPart | undefined {
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    const source = { kind: 'base64' as const, mediaType: mimeType, data };
    return mimeType.startsWith('image/') ? { type: 'image', source } : { type: 'file', source };
  }
  if (part.fileData) {
    const source = { kind: 'url' as const, url: part.fileData.fileUri };
    return part.fileData.mimeType?.startsWith('image/') ? { type: 'image', source } : { type: 'file', source };
  }
  return undefined;
}

/**
 * Reasoning that went out to a Gemini client comes back in a thought part: a gateway blob (Anthropic's
 * signature or redacted thinking, see openai-responses/reasoning-state.ts) or a signature as it was given.
 */
function reasoningPart(text: string, thoughtSignature: string | undefined): ReasoningPart {
  const state = thoughtSignature ? (decodeReasoningState(thoughtSignature) ?? { signature: thoughtSignature }) : {};
  return { type: 'reasoning', text, ...state };
}

type FunctionResponse = NonNullable<GeminiPart['functionResponse']>;

/**
 * The result text: `{output}` and `{error}` (Google's documented convention) give their value, as does the
 * Vercel AI SDK's `{name, content}`; any other object gives its JSON. Media in Gemini 3's multimodal
 * `parts` follow the text.
 */
function toolResult(response: FunctionResponse, positionId: string, open: OpenCall[]): ToolResultPart {
  const at = matchCall(response, open);
  const callId = at === -1 ? positionId : open.splice(at, 1)[0]!.id;
  const payload = asRecord(response.response) ?? {};
  const keys = Object.keys(payload).sort().join(',');
  const failed = keys === 'error';
  const value = keys === 'output' || failed ? payload[keys] : keys === 'content,name' && payload.name === response.name ? payload.content : payload;
  const media = ((response.parts ?? []) as GeminiPart[]).flatMap((part) => {
    const converted = mediaPart(part);
    return converted?.type === 'image' || converted?.type === 'file' ? [converted] : [];
  });
  return {
    type: 'tool_result',
    callId,
    name: response.name,
    content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }, ...media],
    ...(failed && { isError: true }),
  };
}

function matchCall(response: FunctionResponse, open: OpenCall[]): number {
  const byId = response.id === undefined ? -1 : open.findIndex((call) => call.clientId === response.id);
  return byId !== -1 ? byId : open.findIndex((call) => call.name === response.name);
}

/**
 * Thought parts of one turn join into one reasoning part until a signature closes it. Text parts of a
 * model turn join too: they are the chunks of one streamed answer, and some upstreams would read
 * separate parts as separate paragraphs.
 */
function appendPart(content: ContentPart[], part: ContentPart, role: Message['role']): void {
  const last = content.at(-1);
  if (role === 'assistant' && part.type === 'text' && last?.type === 'text') {
    last.text += part.text;
    return;
  }
  if (part.type === 'reasoning' && last?.type === 'reasoning' && !last.signature && !last.redacted) {
    last.text += part.text;
    if (part.signature) last.signature = part.signature;
    if (part.redacted) last.redacted = part.redacted;
    return;
  }
  content.push(part);
}

function misplaced(param: string, kind: string, role: string): GatewayError {
  return new GatewayError('invalid_request', `A ${kind} part belongs in a '${role}' turn (${param}).`, { param });
}
