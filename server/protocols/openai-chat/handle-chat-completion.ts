import { chatFeatureParams, chatOutputCap } from './chat-params.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import { principalOf } from '../../access/principal-of.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { describeRoute } from '../../http/describe-route.js';
import { renderErrorBody } from '../../http/render-error.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { SseWriter } from '../../http/sse-writer.js';
import { convertChatRequest } from './convert-chat-request.js';
import { newChatCompletionId } from './render-chat-completion.js';
import { startChatAnswer } from './start-chat-answer.js';
import { toChatChunks } from './to-chat-chunks.js';
import { sendStream } from '../../http/send-stream.js';

/** `POST /v1/chat/completions`, JSON or `text/event-stream`, over whichever deployment the router picks. */
export function createChatCompletionHandler(registry: ModelRegistry, router: Router): OperationHandler<'createChatCompletion'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const ceiling = access.outputTokenCeiling();
    const body = withOutputCap(req.body, chatOutputCap, ceiling);
    const model = registry.resolve(body.model, access);
    const request = { ...convertChatRequest(body), outputTokenCeiling: ceiling };
    const maxOutputTokens = body.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
    access.assertModelRequest(request, { params: { ...chatFeatureParams, maxOutputTokens }, wire: { protocol: 'openai-chat', body: req.body } });
    const signal = requestAbortSignal(res);
    const toChunks = (events: Parameters<typeof toChatChunks>[0]) =>
      toChatChunks(events, {
        id: newChatCompletionId(),
        model: body.model,
        created: Math.floor(Date.now() / 1000),
        includeUsage: body.stream_options?.include_usage === true,
      });
    const answer = await router.run(model, (target) => startChatAnswer(target, { body, request, signal, toChunks }), signal, access);
    describeRoute(res, context, answer.target, answer.droppedParams);

    if (answer.kind === 'completion') {
      context.usage = answer.usage();
      res.json(answer.body as never);
      return;
    }
    context.streamed = { usage: answer.usage, deliveredSinceUsage: answer.deliveredSinceUsage };
    await sendStream(new SseWriter(res), answer.frames, {
      frameOf: (frame) => ({ data: frame }),
      // In-band, as OpenAI does, so the SDK throws instead of hanging.
      errorFrames: (error) => [{ data: renderErrorBody('openai', error) }],
      finish: () => (context.usage = answer.usage()),
    });
  };
}
