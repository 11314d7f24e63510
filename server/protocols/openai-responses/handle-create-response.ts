import type { OperationHandler } from '../../../generated/operations.js';
import { collectStream } from '../../core/collect-stream.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { Router } from '../../core/router.js';
import type { StreamEvent } from '../../core/types.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { SseWriter } from '../../http/sse-writer.js';
import type { ResponseStore } from '../../store/response-store.js';
import { convertResponsesRequest } from './convert-responses-request.js';
import { ownerOf, responseNotFound } from './handle-stored-responses.js';
import { renderResponse, type ResponsesResponse } from './render-response.js';
import { responseEcho } from './response-echo.js';
import { newResponseId } from './response-ids.js';
import { storedInputItems } from './stored-input-items.js';
import { toResponseEvents } from './to-response-events.js';
import type { ResponsesInputItem } from './wire-types.js';

/** Where each gated feature lives in a Responses request. */
const responsesFeatureParams = { tools: 'tools', json_schema: 'text.format', reasoning: 'reasoning', stream: 'stream', images: 'input' } as const;

export interface ResponsesDependencies {
  registry: ModelRegistry;
  router: Router;
  store: ResponseStore;
  /** Seconds a stored response lives. */
  retentionSeconds: number;
}

/**
 * `POST /v1/responses` on any upstream: the gateway rebuilds the conversation of `previous_response_id`
 * from its own store, translates through the internal representation, and (with `store`, the default)
 * keeps the answer and its input for the next turn.
 */
export function createResponseHandler(deps: ResponsesDependencies): OperationHandler<'createResponse'> {
  return async (req, res) => {
    const body = req.body;
    const owner = ownerOf(res);
    const model = deps.registry.resolve(body.model);
    const previous = body.previous_response_id ? await deps.store.conversation(body.previous_response_id, owner) : undefined;
    if (body.previous_response_id && !previous) throw responseNotFound(body.previous_response_id);
    const history = (previous?.items ?? []) as ResponsesInputItem[];
    const request = convertResponsesRequest(body, {
      items: history,
      lookup: (id) => history.find((item) => (item as { id?: string }).id === id),
    });
    const echo = responseEcho(body);
    const id = newResponseId();
    const createdAt = Math.floor(Date.now() / 1000);
    const stream = body.stream === true;
    const signal = requestAbortSignal(res);

    const save = async (response: ResponsesResponse) => {
      if (!echo.store) return;
      await deps.store.save({
        id,
        ownerId: owner,
        previousResponseId: echo.previous_response_id,
        createdAt,
        expiresAt: createdAt + deps.retentionSeconds,
        inputItems: storedInputItems(body.input),
        response: response as unknown as Record<string, unknown>,
      });
    };

    const answer = await deps.router.run(
      model,
      async (target) => {
        const gated = gateCapabilities(target.model, request, { stream, params: responsesFeatureParams });
        const events = target.deployment.provider.stream({ ...gated.request, model: target.model.id }, { upstreamModel: target.deployment.upstreamModel, signal });
        if (!stream) return { target, collected: await collectStream(events) };
        return { target, started: await prefetchFirstEvent(events, (event: StreamEvent) => event.type !== 'start') };
      },
      signal,
    );
    res.setHeader('x-gateway-model', answer.target.model.id);
    res.setHeader('x-gateway-provider', answer.target.deployment.provider.id);

    if (answer.collected) {
      const response = renderResponse(answer.collected, echo, { id, createdAt });
      res.locals.usage = answer.collected.usage;
      await save(response);
      res.json(response as never);
      return;
    }
    const sse = new SseWriter(res);
    try {
      for await (const event of toResponseEvents(answer.started!, echo, { id, createdAt })) {
        if (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed') {
          res.locals.usage = event.response.usage;
          if (event.type !== 'response.failed') await save(event.response);
        }
        if (!sse.isOpen) break;
        await sse.send(event, event.type);
      }
    } finally {
      sse.end();
    }
  };
}
