import { checkCapabilities } from '../../core/check-capabilities.js';
import { collectStream } from '../../core/collect-stream.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { renderErrorBody } from '../../http/render-error.js';
import { SseWriter } from '../../http/sse-writer.js';
import { toGatewayError } from '../../http/to-gateway-error.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { convertChatRequest } from './convert-chat-request.js';
import { newChatCompletionId, renderChatCompletion } from './render-chat-completion.js';
import { toChatChunks } from './to-chat-chunks.js';

/** `POST /v1/chat/completions`, JSON or `text/event-stream`. */
export function createChatCompletionHandler(registry: ModelRegistry): OperationHandler<'createChatCompletion'> {
  return async (req, res) => {
    const body = req.body;
    const model = registry.resolve(body.model);
    const request = convertChatRequest(body);
    const stream = body.stream === true;
    checkCapabilities(model, request, { stream });
    const signal = requestAbortSignal(res);
    const events = model.provider.stream(request, { upstreamModel: model.upstreamModel, signal });

    if (!stream) {
      res.json(renderChatCompletion(await collectStream(events), body.model));
      return;
    }

    // Before answering 200: an upstream that fails at once must still get an error status, because the
    // SDK ignores a 200 JSON body on a stream request.
    const started = await prefetchFirstEvent(events);
    const sse = new SseWriter(res);
    try {
      const chunks = toChatChunks(started, {
        id: newChatCompletionId(),
        model: body.model,
        created: Math.floor(Date.now() / 1000),
        includeUsage: body.stream_options?.include_usage === true,
      });
      for await (const chunk of chunks) {
        if (!sse.isOpen) break;
        await sse.send(chunk);
      }
      await sse.send('[DONE]');
    } catch (error) {
      // Headers are gone: report in-band, as OpenAI does, so the SDK throws instead of hanging.
      if (!signal.aborted) await sse.send(renderErrorBody('openai', toGatewayError(error)));
    } finally {
      sse.end();
    }
  };
}
