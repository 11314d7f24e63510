import type { AnswerRenderer } from '../../core/model-call.js';
import type { StreamFrame } from '../../core/stream-frame.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ForwardedFrame } from '../../providers/provider.js';
import { asRecord } from '../../providers/upstream/parse-json.js';
import type { UpstreamResponseRef } from '../../store/response-store.js';
import { completeResponse, FunctionCallNames } from './complete-forwarded-answer.js';
import { responseErrorCode } from './response-error-code.js';
import { errorEvent, responseErrorFields } from './response-error-event.js';
import type { ResponsesResponse } from './render-response.js';
import type { SaveResponse } from './save-response.js';
import type { ResponsesStreamEvent } from './to-response-events.js';

/** The gateway's identity for the response: its own ID, the client's `previous_response_id` and `conversation`. */
export interface GatewayResponseIds {
  id: string;
  previousResponseId: string | null;
  /** The gateway's conversation (the upstream never saw it); null leaves the upstream's field as it is. */
  conversation?: { id: string } | null;
}

const finalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Renders an upstream Responses answer as the upstream wrote it, but under the gateway's response ID: the
 * gateway owns the ID space (one store for every upstream, no collisions) and maps it to the upstream's for
 * the next turn. Only the events that carry the whole response are rewritten, and those that lack what
 * OpenAI's spec requires (complete-forwarded-answer.ts); the rest go out byte for byte. A finished answer
 * is saved before its last event goes out. `upstreamStores`: the upstream was asked to keep it too.
 */
export function forwardedResponseRenderer(
  ids: GatewayResponseIds,
  save: SaveResponse,
  upstreamStores: boolean,
): AnswerRenderer<Record<string, unknown>, ForwardedFrame, SuccessBody<'createResponse'>, ResponsesStreamEvent> {
  /**
   * Puts the gateway's IDs in and completes the response: the upstream's, now the gateway's answer. With
   * what the upstream holds, when it stores the response.
   */
  const adopt = (response: Record<string, unknown>, providerId: string): { adopted: ResponsesResponse; upstream: UpstreamResponseRef | null } => {
    const upstreamId = response.id;
    response.id = ids.id;
    response.previous_response_id = ids.previousResponseId;
    if (ids.conversation) response.conversation = ids.conversation;
    completeResponse(response);
    const upstream = upstreamStores && typeof upstreamId === 'string' ? { providerId, responseId: upstreamId } : null;
    return { adopted: asUpstreamAnswer<ResponsesResponse>(response), upstream };
  };
  return {
    async json(response, target) {
      const { adopted, upstream } = adopt(response, target.deployment.provider.id);
      if (adopted.status !== 'failed') await save(adopted, upstream);
      return adopted;
    },
    stream(events, target) {
      // The upstream numbers its events from 0 and the gateway forwards every one, so the count is the next number.
      let sent = 0;
      let snapshot: Record<string, unknown> = {};
      const functionCallNames = new FunctionCallNames();
      async function* frames(): AsyncGenerator<StreamFrame<ResponsesStreamEvent>> {
        for await (const { event = '', data, payload } of events) {
          let out = functionCallNames.complete(event, data);
          if (event === 'error' && payload) out = JSON.stringify(withBothErrorForms(payload));
          const response = asRecord(payload?.response);
          if (response) {
            const { adopted, upstream } = adopt(response, target.deployment.provider.id);
            out = JSON.stringify(payload);
            snapshot = response;
            if (finalEvents.has(event) && event !== 'response.failed') await save(adopted, upstream);
          }
          sent += 1;
          yield { data: asUpstreamAnswer<ResponsesStreamEvent>(out), event };
        }
      }
      return {
        frames: frames(),
        // The upstream broke off mid-answer; the status went out long ago, so the failure is told in-band, as
        // OpenAI does: `error`, then `response.failed` with the last response the upstream described.
        errorFrames: (error) => {
          const fields = responseErrorFields(error);
          // The last response the upstream described, failed: still the upstream's answer.
          const failed = asUpstreamAnswer<ResponsesResponse>({ ...snapshot, status: 'failed', error: { code: responseErrorCode(fields.code), message: fields.message } });
          return [
            { data: { ...errorEvent(fields), sequence_number: sent }, event: 'error' },
            { data: { type: 'response.failed', sequence_number: sent + 1, response: failed }, event: 'response.failed' },
          ];
        },
      };
    },
  };
}

/**
 * OpenAI's live API sends only the nested `error` object, its documentation and SDK types only the flat
 * fields; every error event the gateway sends carries both, so either kind of client finds its fields.
 */
function withBothErrorForms(event: Record<string, unknown>): Record<string, unknown> {
  const nested = asRecord(event.error);
  if (!nested) return event;
  return { ...event, code: event.code ?? nested.code ?? null, message: event.message ?? nested.message, param: event.param ?? nested.param ?? null };
}
