import type { Response } from 'express';
import { tallyStream } from '../../core/tally-stream.js';
import { renderErrorBody } from '../../http/render-error.js';
import type { RequestContext, StreamedSoFar } from '../../http/request-context.js';
import { SseWriter } from '../../http/sse-writer.js';
import { renderMessage } from './render-message.js';
import type { MessageAnswer } from './start-message-answer.js';
import { toMessageEvents } from './to-message-events.js';
import type { MessagesStreamEvent } from './wire-types.js';
import { sendStream } from '../../http/send-stream.js';

/** One frame to send: its `event:` name and its data (verbatim text, or an object to encode). */
interface Frame {
  type: string;
  data: unknown;
}

/**
 * Sends a begun answer: a pass-through as the upstream wrote it (frame by frame, each under its own
 * `event:` name), a translated one rendered as a message or as Anthropic's event stream. Once a stream
 * has started, a failure can only be told in-band: an `error` event with Anthropic's error body, as
 * Anthropic itself does. The context gets the usage, for metering and the request log.
 */
export async function sendMessageAnswer(res: Response, context: RequestContext, answer: MessageAnswer, ids: { id: string; model: string }): Promise<void> {
  if (answer.kind === 'forwarded') {
    const { forwarded } = answer;
    if (forwarded.kind === 'stream') return streamFrames(res, context, forwarded.events, forwarded);
    context.usage = forwarded.usage;
    res.json(forwarded.body as never);
    return;
  }

  const { translated } = answer;
  if (translated.kind === 'collected') {
    context.usage = translated.response.usage;
    res.json(renderMessage(translated.response, ids) as never);
    return;
  }
  const tallied = tallyStream(translated.events);
  await streamFrames(res, context, framesOf(toMessageEvents(tallied.events, ids)), tallied);
}

async function streamFrames(res: Response, context: RequestContext, frames: AsyncIterable<Frame>, streamed: StreamedSoFar): Promise<void> {
  context.streamed = streamed;
  await sendStream(new SseWriter(res), frames, {
    frameOf: ({ type, data }) => ({ data, event: type }),
    errorFrames: (error) => [{ data: renderErrorBody('anthropic', error), event: 'error' }],
    finish: () => (context.usage = streamed.usage()),
  });
}

async function* framesOf(events: AsyncIterable<MessagesStreamEvent>): AsyncGenerator<Frame> {
  for await (const event of events) yield { type: event.type, data: event };
}
