import type { components } from '../../../generated/api.js';
import { renderOpenAIError } from '../openai-chat/render-openai-error.js';
import { asGatewayError } from '../../core/as-gateway-error.js';

type ErrorEvent = components['schemas']['ImagesStreamErrorEvent'];

/**
 * A failure after an image stream started, sent as `event: error` with the body the JSON error handler
 * would have sent for it (safe message and codes): the `openai` SDK throws any event whose data has an
 * `error`, so the client gets an APIError instead of a stream that just stops.
 */
export function imageStreamErrorEvent(error: unknown): ErrorEvent {
  const body = renderOpenAIError(asGatewayError(error));
  return { type: 'error', error: body.error };
}
