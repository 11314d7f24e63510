import { messagesProtocol } from './messages-protocol.js';
import { untranslatedParamNames } from '../../core/dropped-params.js';
import { framesOf } from '../../core/frames-of.js';
import type { GatewayError } from '../../core/gateway-error.js';
import type { ModelCall } from '../../core/model-call.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelRequest } from '../../core/internal-representation.js';
import { renderAnthropicError } from './render-anthropic-error.js';
import { convertMessagesRequest, type ConversionMode } from './convert-messages-request.js';
import { newMessageId } from './message-ids.js';
import { messagesDroppedFields, messagesFeatureParams, messagesTranslatedFields } from './messages-params.js';
import { renderMessage } from './render-message.js';
import { toMessageEvents } from './to-message-events.js';
import type { MessagesCreateRequest, MessagesStreamEvent } from './wire-types.js';

/**
 * A Messages request for the model-call pipeline (core/model-call.ts): forwarded to Anthropic upstreams
 * with the client's `anthropic-beta`, translated for the others, which leave behind (and name) the fields
 * only Anthropic reads. Every stream frame goes under its own `event:` name; a failure once a stream has
 * begun is an `error` event with Anthropic's error body, as Anthropic itself sends.
 *
 * Messages requests always name `max_tokens` (the protocol requires it), which the ceiling has checked.
 */
export function messagesCall(
  body: MessagesCreateRequest,
  options: { outputTokenCeiling: number | undefined; anthropicBeta?: string },
): ModelCall<SuccessBody<'createMessage'>, MessagesStreamEvent> {
  const converted: Partial<Record<ConversionMode, ModelRequest>> = {};
  const ids = { id: newMessageId(), model: body.model };
  const errorFrames = (error: GatewayError) => [{ data: renderAnthropicError(error), event: 'error' }];
  const fields = body as Record<string, unknown>;
  return {
    protocol: messagesProtocol,
    model: body.model,
    stream: body.stream === true,
    clientBody: body,
    body: fields,
    params: messagesFeatureParams,
    droppedFields: messagesDroppedFields,
    request: (mode) => (converted[mode] ??= { ...convertMessagesRequest(body, mode), outputTokenCeiling: options.outputTokenCeiling }),
    ...(options.anthropicBeta && { forwardHeaders: { 'anthropic-beta': options.anthropicBeta } }),
    untranslated: () => untranslatedParamNames(fields, messagesTranslatedFields),
    forwarded: {
      json: (answer) => asUpstreamAnswer<SuccessBody<'createMessage'>>(answer),
      stream: (frames) => ({ frames: framesOf(frames, ({ event, data }) => ({ event, data: asUpstreamAnswer<MessagesStreamEvent>(data) })), errorFrames }),
    },
    translated: {
      json: (response) => renderMessage(response, ids),
      stream: (events) => ({ frames: framesOf(toMessageEvents(events, ids), (event) => ({ event: event.type, data: event })), errorFrames }),
    },
  };
}
