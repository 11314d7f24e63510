import type { AnswerRenderer } from '../../core/model-call.js';
import type { StreamFrame } from '../../core/stream-frame.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelResponse, StreamEvent } from '../../core/internal-representation.js';
import { renderResponse } from './render-response.js';
import { responseEcho } from './response-echo.js';
import type { SaveResponse } from './save-response.js';
import { toResponseEvents, type ResponsesStreamEvent } from './to-response-events.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/**
 * Renders a translated answer as a Responses response or event stream under the gateway's ID, saving a
 * finished one before its last event goes out. Failures are events of the translated stream itself
 * (`response.failed`), so there are no error frames to add.
 */
export function translatedResponseRenderer(
  body: ResponsesCreateRequest,
  id: string,
  save: SaveResponse,
): AnswerRenderer<ModelResponse, StreamEvent, SuccessBody<'createResponse'>, ResponsesStreamEvent> {
  const echo = responseEcho(body);
  const ids = { id, createdAt: Math.floor(Date.now() / 1000) };
  return {
    async json(answer) {
      const response = renderResponse(answer, echo, ids);
      await save(response, null);
      return response;
    },
    stream(events) {
      async function* frames(): AsyncGenerator<StreamFrame<ResponsesStreamEvent>> {
        for await (const event of toResponseEvents(events, echo, ids)) {
          if (event.type === 'response.completed' || event.type === 'response.incomplete') await save(event.response, null);
          yield { data: event, event: event.type };
        }
      }
      return { frames: frames() };
    },
  };
}
