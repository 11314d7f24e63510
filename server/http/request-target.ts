import type { RequestHandler } from 'express';
import { GatewayError } from '../core/gateway-error.js';

/**
 * Refuses a request target holding a raw `#`. RFC 9112 §3.2 allows no fragment there, so no real client
 * sends one (fetch and the SDKs drop fragments and percent-encode IDs), and software reads such a target
 * differently: Express's router drops everything from the `#` on, other parsers keep it, so
 * `GET /v1/models/#x` once ran the model list and was validated as one model (found by
 * test/bad-input-parameters.test.ts). The front door reads the `#` as part of the path, so this is
 * defence for the request log and anything downstream that parses the URL again.
 */
export const refuseFragmentInTarget: RequestHandler = (req, _res, next) => {
  if (!req.url.includes('#')) return next();
  next(new GatewayError('invalid_request', 'The request target contains a raw "#"; percent-encode it as %23.', { code: 'invalid_request_target' }));
};
