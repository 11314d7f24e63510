import type { RequestHandler } from 'express';
import { GatewayError } from './gateway-error.js';

/**
 * Refuses a request target holding a raw `#`. RFC 9112 §3.2 allows no fragment there, so no real client
 * sends one (fetch and the SDKs drop fragments and percent-encode IDs), and the parts of the gateway read
 * such a target differently: Express's router drops everything from the `#` on, the contract validator
 * keeps it, so `GET /v1/models/#x` ran the model list and was validated as one model (a 500 in tests, a
 * wrong answer in production). Found by test/bad-input-parameters.test.ts.
 */
export const refuseFragmentInTarget: RequestHandler = (req, _res, next) => {
  if (!req.url.includes('#')) return next();
  next(new GatewayError('invalid_request', 'The request target contains a raw "#"; percent-encode it as %23.', { code: 'invalid_request_target' }));
};
