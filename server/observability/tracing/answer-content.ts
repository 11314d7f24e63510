/**
 * Reads what the GenAI span attributes need out of bodies and stream frames in any client protocol
 * (Chat Completions, Responses, Messages, generateContent): the keys of finish reasons are the protocol's
 * own (its definition's `answerReader`); those of text differ across protocols but never collide.
 */

/** Longest captured prompt or completion attribute, in characters. */
export const maxCapturedCharacters = 8_192;

/** Keys whose string values are generated or prompt text: `content` (Chat), `text` (Messages, Gemini parts), `delta` (Responses events). */
const textKeys = new Set(['content', 'text', 'delta']);
/** Finish reasons sit near the top (`choices[0].finish_reason`, `delta.stop_reason`); no need to walk message content. */
const finishReasonDepth = 4;

/**
 * Adds the finish reasons `value` states under the protocol's `keys` (a Responses object's reason is its
 * incomplete reason, else its status).
 */
export function collectFinishReasons(value: unknown, keys: readonly string[], into: Set<string>, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > finishReasonDepth) return;
  if (Array.isArray(value)) {
    for (const item of value) collectFinishReasons(item, keys, into, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (record.object === 'response' && typeof record.status === 'string' && record.status !== 'in_progress') {
    const incomplete = record.incomplete_details as { reason?: unknown } | null | undefined;
    into.add(typeof incomplete?.reason === 'string' ? incomplete.reason : record.status);
    return;
  }
  for (const [key, field] of Object.entries(record)) {
    if (keys.includes(key)) {
      if (typeof field === 'string') into.add(field);
    } else if (typeof field === 'object') collectFinishReasons(field, keys, into, depth + 1);
  }
}

/** A stream frame's data as an object: rendered frames are objects, forwarded ones the upstream's JSON text. */
export function frameObject(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** Every text string in `value`, in order, up to `budget` characters in all. */
export function textsIn(value: unknown, into: string[], budget = maxCapturedCharacters): number {
  if (budget <= 0 || value === null || typeof value !== 'object') return budget;
  for (const [key, field] of Object.entries(value)) {
    if (budget <= 0) break;
    if (typeof field === 'string') {
      if (textKeys.has(key) || Array.isArray(value)) {
        into.push(field.slice(0, budget));
        budget -= field.length;
      }
    } else budget = textsIn(field, into, budget);
  }
  return budget;
}

/**
 * `gen_ai.input.messages` in the conventions' shape (role, text parts) from a request body of any
 * protocol: `messages` (Chat, Messages), `input` (Responses), `contents` (Gemini), `prompt` (images).
 */
export function inputMessages(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const list = record.messages ?? record.contents ?? record.input ?? record.prompt;
  if (list === undefined) return undefined;
  const items = Array.isArray(list) ? list : [{ role: 'user', content: list }];
  const messages = items.map((item: unknown) => {
    const role = item !== null && typeof item === 'object' && typeof (item as { role?: unknown }).role === 'string' ? (item as { role: string }).role : 'user';
    return { role, parts: [{ type: 'text', content: textOf(typeof item === 'string' ? { content: item } : item) }] };
  });
  return truncate(JSON.stringify(messages));
}

/**
 * `gen_ai.system_instructions` from the field each protocol keeps them in apart from the messages:
 * `system` (Messages), `systemInstruction` (Gemini), `instructions` (Responses). Chat's are among its messages.
 */
export function systemInstructions(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const system = record.system ?? record.systemInstruction ?? record.system_instruction ?? record.instructions;
  if (system === undefined || system === null) return undefined;
  return truncate(JSON.stringify([{ type: 'text', content: typeof system === 'string' ? system : textOf(system) }]));
}

/** `gen_ai.output.messages` in the conventions' shape: one assistant message of the generated text. */
export function outputMessages(texts: readonly string[], finishReasons: ReadonlySet<string>): string {
  const [finishReason] = finishReasons;
  return truncate(JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: texts.join('') }], finish_reason: finishReason ?? null }]));
}

function textOf(value: unknown): string {
  const texts: string[] = [];
  textsIn(value, texts);
  return texts.join('');
}

function truncate(text: string): string {
  return text.length <= maxCapturedCharacters ? text : `${text.slice(0, maxCapturedCharacters)}…`;
}
