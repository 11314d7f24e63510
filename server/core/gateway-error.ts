/**
 * Protocol-neutral error kinds. Each protocol family renders them in its own shape and vocabulary
 * (each protocol's definition's `renderError`, protocols/registry.ts); handlers and providers only ever throw GatewayError.
 */
export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'timeout'
  | 'upstream'
  | 'overloaded'
  | 'not_implemented'
  | 'internal';

const defaultStatus: Record<ErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  timeout: 504,
  upstream: 502,
  overloaded: 529,
  not_implemented: 501,
  internal: 500,
};

export interface GatewayErrorOptions {
  status?: number;
  /** The request field at fault, as the client named it (`messages[0].role`). */
  param?: string;
  /** A machine-readable code for OpenAI's `error.code` (`model_not_found`, `invalid_api_key`, …). */
  code?: string;
  /** Extra response headers, e.g. `retry-after` or `allow`. */
  headers?: Record<string, string>;
  /** Set when an upstream provider failed: the router decides from it whether to retry or fall back. */
  upstream?: UpstreamFailure;
  cause?: unknown;
}

/** What went wrong upstream, in the terms the router needs. */
export interface UpstreamFailure {
  providerId: string;
  /** The upstream's HTTP status; absent when no answer came (refused, reset, timed out). */
  status?: number;
  /** From `retry-after-ms` / `retry-after`, when the upstream said how long to wait. */
  retryAfterMs?: number;
}

/** The one error type of the gateway: a kind, an HTTP status and a message safe to show the client. */
export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly status: number;
  readonly param?: string;
  readonly code?: string;
  readonly headers?: Record<string, string>;
  readonly upstream?: UpstreamFailure;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status ?? defaultStatus[kind];
    this.param = options.param;
    this.code = options.code;
    this.headers = options.headers;
    this.upstream = options.upstream;
  }
}

/** 404 for a model ID that is not in the registry, worded like OpenAI's. */
export function modelNotFound(model: string): GatewayError {
  return new GatewayError(
    'not_found',
    `The model '${model}' does not exist. GET /v1/models lists the models you can use.`,
    { param: 'model', code: 'model_not_found' },
  );
}
