import type { Response } from 'express';
import type { RequestContext } from '../../http/request-context.js';
import { sendStream } from '../../http/send-stream.js';
import { SseWriter } from '../../http/sse-writer.js';
import { asRecord } from '../../providers/upstream/parse-json.js';
import type { UpstreamResponseRef } from '../../store/response-store.js';
import { completeResponse, FunctionCallNames } from './complete-forwarded-answer.js';
import { readResponsesUsage } from './read-responses-usage.js';
import { responseErrorCode } from './response-error-code.js';
import { errorEvent, responseErrorFields } from './response-error-event.js';
import type { ForwardedResponse } from './start-forwarded-response.js';

/** Stores a finished response (a no-op without `store`); `upstream` when the upstream keeps it too. */
export type SaveResponse = (response: Record<string, unknown>, upstream: UpstreamResponseRef | null) => Promise<void>;

/** The gateway's identity for the response: its own ID, and the client's `previous_response_id`. */
export interface GatewayResponseIds {
  id: string;
  previousResponseId: string | null;
}

const finalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Sends an upstream Responses answer to the client as the upstream wrote it, but under the gateway's
 * response ID: the gateway owns the ID space (one store for every upstream, no collisions) and maps it to
 * the upstream's for the next turn. Only the events that carry the whole response are rewritten, and those
 * that lack what OpenAI's spec requires (complete-forwarded-answer.ts); the rest go out byte for byte.
 */
export async function sendForwardedResponse(
  res: Response,
  context: RequestContext,
  forwarded: ForwardedResponse,
  ids: GatewayResponseIds,
  providerId: string,
  save: SaveResponse,
): Promise<void> {
  const { answer } = forwarded;
  /** Puts the gateway's IDs in; returns what the upstream holds, when it stores the response. */
  const adopt = (response: Record<string, unknown>): UpstreamResponseRef | null => {
    const upstreamId = response.id;
    response.id = ids.id;
    response.previous_response_id = ids.previousResponseId;
    completeResponse(response);
    return forwarded.upstreamStores && typeof upstreamId === 'string' ? { providerId, responseId: upstreamId } : null;
  };
  if (answer.kind === 'json') {
    const upstream = adopt(answer.response);
    context.usage = readResponsesUsage(answer.response.usage);
    if (answer.response.status !== 'failed') await save(answer.response, upstream);
    res.json(answer.response as never);
    return;
  }

  // The usage comes whole with the final event, and no content follows it.
  context.streamed = { usage: () => context.usage, deliveredSinceUsage: () => (context.usage ? 0 : answer.deliveredCharacters()) };
  // The upstream numbers its events from 0 and the gateway forwards every one, so the count is the next number.
  let sent = 0;
  let snapshot: Record<string, unknown> = {};
  const functionCallNames = new FunctionCallNames();
  await sendStream(new SseWriter(res), answer.events, {
    frameOf: async (event) => {
      let data = functionCallNames.complete(event.type, event.data);
      if (event.type === 'error' && event.payload) data = JSON.stringify(withBothErrorForms(event.payload));
      const response = asRecord(event.payload?.response);
      if (response) {
        const upstream = adopt(response);
        data = JSON.stringify(event.payload);
        snapshot = response;
        if (finalEvents.has(event.type)) {
          context.usage = readResponsesUsage(response.usage);
          if (event.type !== 'response.failed') await save(response, upstream);
        }
      }
      sent += 1;
      return { data, event: event.type };
    },
    // The upstream broke off mid-answer; the status went out long ago, so the failure is told in-band, as
    // OpenAI does: `error`, then `response.failed` with the last response the upstream described.
    errorFrames: (error) => {
      const fields = responseErrorFields(error);
      const failed = { ...snapshot, status: 'failed', error: { code: responseErrorCode(fields.code), message: fields.message } };
      return [
        { data: { ...errorEvent(fields), sequence_number: sent }, event: 'error' },
        { data: { type: 'response.failed', sequence_number: sent + 1, response: failed }, event: 'response.failed' },
      ];
    },
  });
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
