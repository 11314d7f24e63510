import { principalOf } from '../../access/principal-of.js';
import type { Response } from 'express';
import type { OperationHandler } from '../../../generated/operations.js';
import { droppedParamNames } from '../../core/dropped-params.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { RouteTarget, Router } from '../../core/router.js';
import { startTranslatedAnswer, type TranslatedAnswer } from '../../core/start-translated-answer.js';
import { tallyStream } from '../../core/tally-stream.js';
import { describeRoute } from '../../http/describe-route.js';
import type { RequestContext } from '../../http/request-context.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { SseWriter } from '../../http/sse-writer.js';
import type { ResponseStore } from '../../store/response-store.js';
import { convertResponsesRequest, type ResponsesHistory } from './convert-responses-request.js';
import { ownerOf, responseNotFound } from './handle-stored-responses.js';
import { droppedHostedTools, hostedToolsOf } from './hosted-tools.js';
import { renderResponse } from './render-response.js';
import { readResponsesUsage } from './read-responses-usage.js';
import { responseEcho } from './response-echo.js';
import { newResponseId } from './response-ids.js';
import { responsesDroppedFields, responsesFeatureParams, responsesOutputCap } from './responses-params.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import { sendForwardedResponse, type SaveResponse } from './send-forwarded-response.js';
import { startForwardedResponse, type ForwardedResponse } from './start-forwarded-response.js';
import { storedInputItems } from './stored-input-items.js';
import { toResponseEvents } from './to-response-events.js';
import { isItemReference, type ItemLookup } from './upstream-conversation.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';
import { sendStream } from '../../http/send-stream.js';

export interface ResponsesDependencies {
  registry: ModelRegistry;
  router: Router;
  store: ResponseStore;
  /** Seconds a stored response lives. */
  retentionSeconds: number;
}

type StartedAnswer = { target: RouteTarget } & ({ forwarded: ForwardedResponse } | { translated: TranslatedAnswer; droppedTools: string[] });

/**
 * `POST /v1/responses` on any upstream: the gateway rebuilds the conversation of `previous_response_id`
 * from its own store, then either forwards the request to an upstream Responses API (`api: responses`)
 * or translates it through the internal representation, and (with `store`, the default) keeps the answer
 * and its input for the next turn.
 */
export function createResponseHandler(deps: ResponsesDependencies): OperationHandler<'createResponse'> {
  return async (req, res, context) => {
    const owner = ownerOf(context);
    const { access } = principalOf(context);
    const ceiling = access.outputTokenCeiling();
    const body = withOutputCap(req.body, responsesOutputCap, ceiling);
    const model = deps.registry.resolve(body.model, access);
    const previous = body.previous_response_id ? await deps.store.conversation(body.previous_response_id, owner) : undefined;
    if (body.previous_response_id && !previous) throw responseNotFound(body.previous_response_id);
    const history = previous?.items ?? [];
    const lookup = await itemLookup(deps.store, owner, history, body.input);
    const request = {
      ...convertResponsesRequest(body, { items: history as ResponsesInputItem[], lookup: lookup as ResponsesHistory['lookup'] }),
      outputTokenCeiling: ceiling,
    };
    access.assertModelRequest(request, { params: responsesFeatureParams, wire: { protocol: 'openai-responses', body: req.body } });
    const stream = body.stream === true;
    const signal = requestAbortSignal(res);
    const hostedTools = hostedToolsOf(body.tools);

    const started = await deps.router.run<StartedAnswer>(
      model,
      async (target) => {
        const passThrough = target.deployment.provider.responsesPassThrough;
        if (passThrough) return { target, forwarded: await startForwardedResponse(target, passThrough, { body, request, previous, lookup, signal }) };
        const droppedTools = droppedHostedTools(target.model, hostedTools);
        return { target, droppedTools, translated: await startTranslatedAnswer(target, request, { stream, signal, params: responsesFeatureParams }) };
      },
      signal,
      access,
    );

    const id = newResponseId();
    const save: SaveResponse = async (response, upstream) => {
      if (body.store === false) return;
      // Retention counts from when the gateway kept the response, whatever the upstream's `created_at`.
      const storedAt = Math.floor(Date.now() / 1000);
      await deps.store.save({
        id,
        ownerId: owner,
        previousResponseId: body.previous_response_id ?? null,
        createdAt: storedAt,
        expiresAt: storedAt + deps.retentionSeconds,
        inputItems: storedInputItems(body.input),
        response,
        upstream,
      });
    };

    if ('forwarded' in started) {
      describeRoute(res, context, started.target, started.forwarded.droppedParams);
      const ids = { id, previousResponseId: body.previous_response_id ?? null };
      await sendForwardedResponse(res, context, started.forwarded, ids, started.target.deployment.provider.id, save);
      return;
    }
    const droppedParams = [...droppedParamNames(responsesDroppedFields, body as Record<string, unknown>, started.translated.dropped), ...started.droppedTools];
    describeRoute(res, context, started.target, droppedParams);
    await sendTranslatedResponse(res, context, body, id, started.translated, (response) => save(response, null));
  };
}

/**
 * Resolves `item_reference`s as OpenAI does: among every item the owner has stored, not only the
 * `previous_response_id` chain (the AI SDK refers to earlier turns by item ID without one). The chain is
 * searched first; the store is asked once, for the IDs the chain lacks.
 */
async function itemLookup(store: ResponseStore, owner: string, history: ReadonlyArray<Record<string, unknown>>, input: ResponsesCreateRequest['input']): Promise<ItemLookup> {
  const inChain = (id: string) => history.find((item) => item.id === id);
  const referenced = Array.isArray(input)
    ? (input as Array<Record<string, unknown>>).filter(isItemReference).map((item) => item.id as string)
    : [];
  const missing = referenced.filter((id) => !inChain(id));
  const stored = await store.findItems(missing, owner);
  return (id) => inChain(id) ?? stored.get(id);
}

async function sendTranslatedResponse(
  res: Response,
  context: RequestContext,
  body: ResponsesCreateRequest,
  id: string,
  answer: TranslatedAnswer,
  save: (response: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const echo = responseEcho(body);
  const ids = { id, createdAt: Math.floor(Date.now() / 1000) };
  if (answer.kind === 'collected') {
    const response = renderResponse(answer.response, echo, ids);
    context.usage = answer.response.usage;
    await save(response as unknown as Record<string, unknown>);
    res.json(response as never);
    return;
  }
  const tallied = tallyStream(answer.events);
  context.streamed = { usage: () => context.usage ?? tallied.usage(), deliveredSinceUsage: tallied.deliveredSinceUsage };
  // Failures are events of the translated stream itself (response.failed), so none is added here.
  await sendStream(new SseWriter(res), toResponseEvents(tallied.events, echo, ids), {
    frameOf: async (event) => {
      if (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed') {
        context.usage = readResponsesUsage(event.response.usage);
        if (event.type !== 'response.failed') await save(event.response as unknown as Record<string, unknown>);
      }
      return { data: event, event: event.type };
    },
  });
}
