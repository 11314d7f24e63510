import type { CallObserver } from '../../core/call-observer.js';
import type { StartedAnswer } from '../../core/started-answer.js';
import type { MeteredAnswer } from './metered-request.js';

/**
 * Metering as an observer of the routed calls (core/call-observer.ts): the answer that won is kept in its
 * metered request's state, read when the response is over for its usage and images (live, for a stream),
 * and a stream tells it whether it came whole when it is over. A request that is not metered is left alone.
 */
export const meterAnswers: CallObserver = {
  onAnswer: (answer, context) => {
    const request = context.metering;
    if (!request) return answer;
    const metered = meteredAnswerOf(answer);
    request.answer = metered;
    if (answer.kind === 'json') return answer;
    const { finished } = answer;
    return {
      ...answer,
      finished: (whole) => {
        metered.complete = whole;
        finished?.(whole);
      },
    };
  },
};

function meteredAnswerOf<Body, Frame>(answer: StartedAnswer<Body, Frame>): MeteredAnswer {
  if (answer.kind === 'json') {
    const { usage, imageCount = 0 } = answer;
    return { usage: () => usage, imageCount: () => imageCount, complete: true };
  }
  const { streamed, images } = answer;
  return {
    usage: () => streamed?.usage() ?? images?.usage(),
    imageCount: () => images?.count() ?? 0,
    complete: false,
    ...(streamed && { streamed }),
  };
}
