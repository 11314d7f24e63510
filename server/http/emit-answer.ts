import type { Response } from 'express';
import type { StartedAnswer, StreamForm } from '../core/model-call.js';
import { observeStream } from '../observability/metrics/observe-stream.js';
import { describeRoute } from './describe-route.js';
import { openStreamSink } from './open-stream-sink.js';
import type { RequestContext } from '../core/request-context.js';
import { sendStream } from './send-stream.js';

/**
 * Sends a begun model answer: the route headers, then the whole JSON body or the stream in the client
 * protocol's form (see send-stream.ts for the loop, its backpressure and in-band errors). The context gets
 * the usage, for metering and the request log, and while a stream runs what it has delivered so far. A
 * stream whose client left is read on, its frames dropped, within the request's drain bound
 * (core/request-work.ts), so that its usage arrives.
 */
export async function emitAnswer(res: Response, context: RequestContext, answer: StartedAnswer, form: StreamForm = 'sse'): Promise<void> {
  describeRoute(res, context, answer.target, answer.droppedParams);
  if (answer.kind === 'json') {
    context.usage = answer.usage;
    context.answerComplete = true;
    res.json(answer.body);
    return;
  }
  context.streamed = { usage: answer.usage, deliveredSinceUsage: answer.deliveredSinceUsage };
  await sendStream(observeStream(res, openStreamSink(res, form)), answer.frames, {
    frameOf: (frame) => frame,
    ...(answer.errorFrames && { errorFrames: answer.errorFrames }),
    readOnWithoutClient: (data) => context.work.readOnFor(Buffer.byteLength(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''))),
    finish: (whole) => {
      context.usage = answer.usage();
      context.answerComplete = whole;
    },
  });
}
