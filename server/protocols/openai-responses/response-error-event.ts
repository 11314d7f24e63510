import { renderOpenAIError } from '../openai-chat/render-openai-error.js';
import { asGatewayError } from '../../core/as-gateway-error.js';

/** OpenAI's error fields, as the JSON error handler would send them for the same failure. */
export interface ResponseErrorFields {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** The same body, codes and safe message the JSON error handler sends for this error. */
export function responseErrorFields(error: unknown): ResponseErrorFields {
  return renderOpenAIError(asGatewayError(error)).error;
}

/** OpenAI's in-band `error` event, in both the flat form and the nested one the SDKs read. */
export function errorEvent({ message, type, param, code }: ResponseErrorFields) {
  return { type: 'error' as const, code, message, param, error: { type, code, message, param } };
}
