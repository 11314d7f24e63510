/**
 * Turns an answer plan into the stream events a real upstream would send: start, word-sized text deltas or
 * one tool call in a few argument fragments, finish, usage. Paced so concurrent streams interleave.
 */
import { setImmediate, setTimeout } from 'node:timers/promises';
import type { StreamEvent } from '../../core/internal-representation.js';
import { chunkText, splitEvenly } from './chunk-text.js';
import type { AnswerPlan } from './plan-answer.js';

/** Per-stream settings for {@link streamAnswer}. */
export interface StreamAnswerOptions {
  /** The response ID sent in the `start` event. */
  id: string;
  /** Prompt tokens, reported in the final `usage` event. */
  inputTokens: number;
  /** Pause before each delta; 0 still yields to the event loop once per delta. */
  chunkDelayMs: number;
  /** Aborting stops the stream at the next pause and rethrows the signal's reason. */
  signal: AbortSignal;
}

/**
 * Streams `plan` as StreamEvents in protocol order. Throws `signal.reason` as soon as the signal aborts;
 * pending timers are cancelled with it, so an abandoned stream holds nothing open.
 *
 * @example for await (const event of streamAnswer(planAnswer(request), options)) send(event);
 */
export async function* streamAnswer(plan: AnswerPlan, options: StreamAnswerOptions): AsyncGenerator<StreamEvent> {
  const { signal } = options;
  signal.throwIfAborted();
  yield { type: 'start', id: options.id };
  if (plan.kind === 'text') {
    for (const chunk of chunkText(plan.text)) {
      await pause(options);
      yield { type: 'text_delta', text: chunk };
    }
  } else {
    yield { type: 'tool_call_start', index: 0, id: plan.id, name: plan.name };
    for (const piece of splitEvenly(plan.arguments, fragmentCount(plan.arguments))) {
      await pause(options);
      yield { type: 'tool_call_delta', index: 0, argumentsDelta: piece };
    }
    yield { type: 'tool_call_end', index: 0 };
  }
  signal.throwIfAborted();
  const finish: StreamEvent = { type: 'finish', reason: plan.finishReason };
  if (plan.kind === 'text' && plan.stopSequence !== undefined) finish.stopSequence = plan.stopSequence;
  yield finish;
  yield {
    type: 'usage',
    usage: { inputTokens: options.inputTokens, cachedInputTokens: 0, outputTokens: plan.outputTokens, reasoningTokens: 0 },
  };
}

/** Real models send tool arguments in a handful of fragments; 2 to 4 exercises clients' joining logic. */
function fragmentCount(args: string): number {
  if (args.length < 40) return 2;
  return args.length < 200 ? 3 : 4;
}

/**
 * Waits between deltas. The timers/promises versions clear their timer on abort; their AbortError is
 * replaced by the signal's own reason so callers see why the stream stopped (e.g. a timeout).
 */
async function pause({ chunkDelayMs, signal }: StreamAnswerOptions): Promise<void> {
  try {
    if (chunkDelayMs > 0) await setTimeout(chunkDelayMs, undefined, { signal });
    else await setImmediate(undefined, { signal });
  } catch (error) {
    signal.throwIfAborted();
    throw error;
  }
}
