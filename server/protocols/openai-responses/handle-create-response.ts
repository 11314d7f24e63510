import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import { startTranslatedAnswer } from '../../core/start-translated-answer.js';
import { describeRoute } from '../../http/describe-route.js';
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

    const { target, answer } = await deps.router.run(
      model,
      async (target) => ({ target, answer: await startTranslatedAnswer(target, request, { stream, signal, params: responsesFeatureParams }) }),
      signal,
    );
    describeRoute(res, target);

    if (answer.kind === 'collected') {
      const response = renderResponse(answer.response, echo, { id, createdAt });
      res.locals.usage = answer.response.usage;
      await save(response);
      res.json(response as never);
      return;
    }
    const sse = new SseWriter(res);
    try {
      for await (const event of toResponseEvents(answer.events, echo, { id, createdAt })) {
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
