import type { Response } from 'express';
import type { StartedAnswer, StreamForm } from '../core/started-answer.js';
import { observeStream } from '../observability/metrics/observe-stream.js';
import { describeRoute } from './describe-route.js';
import { openStreamSink } from './open-stream-sink.js';
import type { RequestContext } from '../core/request-context.js';
import { sendStream } from './send-stream.js';

/**
 * Sends the begun answer of a routed call (core/route-call.ts), whatever its operation: the route headers,
 * then the whole JSON body or the stream in the client protocol's form (see send-stream.ts for the loop,
 * its backpressure and in-band errors). The context gets the route and the usage, for the request log and
 * its span, and while a generated stream runs what it has delivered so far; metering learns the answer as
 * an observer of the routed call (usage/metering/meter-answers.ts), and the end of a stream from
 * `finished`. A generated stream
 * whose client left is read on, its frames dropped, within the request's drain bound
 * (core/request-work.ts), so that its usage arrives.
 */
export async function emitAnswer<Body, Frame>(res: Response, context: RequestContext, answer: StartedAnswer<Body, Frame>, form: StreamForm = 'sse'): Promise<void> {
  describeRoute(res, context, answer.target, answer.droppedParams);
  if (answer.kind === 'json') {
    context.usage = answer.usage;
    // Most bodies are made at once: awaiting only those that are not saves a promise and a turn per answer.
    const body = answer.body();
    res.json(body instanceof Promise ? await body : body);
    return;
  }
  const { streamed, images } = answer;
  if (streamed) context.streamed = streamed;
  await sendStream(observeStream(context, res, openStreamSink(res, form)), answer.frames, {
    frameOf: (frame) => frame,
    ...(answer.errorFrames && { errorFrames: answer.errorFrames }),
    ...(streamed && {
      readOnWithoutClient: (data) => context.work.readOnFor(Buffer.byteLength(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''))),
    }),
    finish: (whole: boolean) => {
      context.usage = streamed?.usage() ?? images?.usage();
      answer.finished?.(whole);
    },
  });
}
