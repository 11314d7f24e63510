import type { StartedAnswer } from '../../core/started-answer.js';
import type { StreamFrame } from '../../core/stream-frame.js';
import { collectFinishReasons, frameObject, maxCapturedCharacters, textsIn } from './answer-content.js';
import { currentTraceScope, type RequestTrace } from './trace-scope.js';

/**
 * Lets the request's trace read a begun answer, in the client's protocol, for its finish reasons (and its
 * text when content is captured): a whole body once it is made, a stream frame by frame as it goes out.
 * Outside a traced request the answer is returned as it is.
 */
export function traceAnswer<Body, Frame>(answer: StartedAnswer<Body, Frame>): StartedAnswer<Body, Frame> {
  const request = currentTraceScope()?.request;
  if (!request) return answer;
  if (answer.kind === 'json') {
    const { body } = answer;
    return {
      ...answer,
      body: async () => {
        const made = await body();
        read(request, made);
        return made;
      },
    };
  }
  return { ...answer, frames: readEach(request, answer.frames) };
}

async function* readEach<Frame>(request: RequestTrace, frames: AsyncIterable<StreamFrame<Frame>>): AsyncGenerator<StreamFrame<Frame>> {
  for await (const frame of frames) {
    if (typeof frame.data === 'string' && !request.captureContent && !frame.data.includes(responseObjectMarker)) {
      readFinishReasonsOfText(request, frame.data);
    } else read(request, frameObject(frame.data), true);
    yield frame;
  }
}

/** Responses API objects, whose finish reason is their status: the few frames that hold one are parsed. */
const responseObjectMarker = '"object":"response"';

/**
 * A forwarded frame is the upstream's JSON text: its finish reason is found without parsing it, as a
 * Chat Completions stream names `finish_reason` in every chunk.
 */
function readFinishReasonsOfText(request: RequestTrace, data: string): void {
  const field = finishReasonFields(request.answerReader.finishReasonKeys);
  if (field) for (const match of data.matchAll(field)) request.finishReasons.add(match[1]!);
}

const fieldsByKeys = new WeakMap<readonly string[], RegExp | undefined>();

/** A pattern for `"key": "value"` of any of `keys` (JSON keys need no escaping here: they are plain names). */
function finishReasonFields(keys: readonly string[]): RegExp | undefined {
  if (!fieldsByKeys.has(keys)) fieldsByKeys.set(keys, keys.length === 0 ? undefined : new RegExp(`"(?:${keys.join('|')})"\\s*:\\s*"([^"]*)"`, 'g'));
  return fieldsByKeys.get(keys);
}

/** Stream events that name a `type` carry text only in their deltas: the `done` and `completed` ones repeat it. */
function read(request: RequestTrace, body: unknown, streamed = false): void {
  collectFinishReasons(body, request.answerReader.finishReasonKeys, request.finishReasons);
  if (!request.captureContent) return;
  const type = body !== null && typeof body === 'object' ? (body as { type?: unknown }).type : undefined;
  if (streamed && typeof type === 'string' && !type.endsWith('delta')) return;
  const budget = maxCapturedCharacters - request.outputText.reduce((sum, text) => sum + text.length, 0);
  textsIn(streamed ? body : outputOf(request, body), request.outputText, budget);
}

/** The generated part of a whole answer, where its protocol keeps it (`choices`, `content`, `candidates`, `output`). */
function outputOf(request: RequestTrace, body: unknown): unknown {
  if (body === null || typeof body !== 'object') return undefined;
  return request.answerReader.outputOf(body as Record<string, unknown>);
}
