import type { ServerResponse } from 'node:http';
import type { StreamSink } from '../../core/stream-sink.js';
import type { RequestContext } from '../../core/request-context.js';
import { modelLabels } from './observe-requests.js';

/**
 * A stream's sink that counts the stream as open until its response closes and times its first event from
 * the request's arrival. With metrics off it is the sink itself: nothing is added to the send loop.
 */
export function observeStream(context: RequestContext, res: ServerResponse, sink: StreamSink): StreamSink {
  if (!context.metrics) return sink;
  const { metrics, startedAt } = context.metrics;
  metrics.streamOpened();
  res.once('close', () => metrics.streamClosed());
  let sentFirst = false;
  return {
    get isOpen() {
      return sink.isOpen;
    },
    send(data, event) {
      if (!sentFirst) {
        sentFirst = true;
        // A stream has its route by now, so the body is not needed to name the model.
        metrics.firstTokenSent(modelLabels(metrics, context, undefined), Number(process.hrtime.bigint() - startedAt) / 1e9);
      }
      return sink.send(data, event);
    },
    end: () => sink.end(),
  };
}
