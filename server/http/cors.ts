import cors from 'cors';
import type { RequestHandler } from 'express';
import type { GatewayConfig } from '../config/config-schema.js';

/** Headers a browser client may read: the request ID for support, retry-after, and what routing did. */
const exposedHeaders = ['x-request-id', 'retry-after', 'x-gateway-model', 'x-gateway-provider', 'x-gateway-dropped-params'];

/**
 * CORS for the configured origins, or none at all (the default: no `Access-Control-*` header is ever sent,
 * so browsers keep pages of other origins out). Preflights are answered before authentication, since
 * browsers send them without the key. The allowed request headers are the ones the preflight asks for, so
 * the SDKs' own (`x-stainless-*`, `anthropic-version`, `x-goog-api-client`) pass without a list to keep up.
 *
 * @example
 * const allowCrossOrigin = createCors({ allowed_origins: ['https://app.example.com'], max_age_seconds: 600 });
 * if (allowCrossOrigin) app.use(allowCrossOrigin);
 */
export function createCors(config: GatewayConfig['cors']): RequestHandler | undefined {
  if (config.allowed_origins.length === 0) return undefined;
  return cors({
    origin: config.allowed_origins.includes('*') ? '*' : config.allowed_origins,
    methods: ['GET', 'POST', 'DELETE', 'PATCH'],
    exposedHeaders,
    maxAge: config.max_age_seconds,
  });
}
