import { GatewayError, type ErrorKind } from '../../core/gateway-error.js';

/** What a provider could read from an upstream error body, in the upstream's own words. */
export interface UpstreamErrorDetails {
  message?: string;
  /** OpenAI `error.type`, Anthropic `error.type`, Gemini `error.status`. */
  type?: string;
  code?: string;
  param?: string;
}

/** Header values as undici gives them. */
export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/**
 * An upstream's non-2xx answer as a GatewayError the client can be shown: the upstream's message is kept
 * (minus anything that looks like a key), but a refusal of *our* credentials becomes a 502, because the
 * client's key was fine and the upstream's words may quote part of ours.
 */
export function upstreamStatusError(
  providerId: string,
  status: number,
  headers: UpstreamHeaders,
  details: UpstreamErrorDetails,
  secrets: readonly string[],
): GatewayError {
  const retryAfterMs = parseRetryAfter(headers);
  const upstream = { providerId, status, retryAfterMs };
  const said = details.message ? scrubSecrets(details.message, secrets) : `HTTP ${status}`;
  if (status === 401 || status === 403) {
    return new GatewayError('upstream', `The upstream provider '${providerId}' refused the gateway's credentials (HTTP ${status}).`, {
      code: 'upstream_authentication_failed',
      upstream,
    });
  }
  const kind = kindForStatus(status);
  const clientStatus = kind === 'invalid_request' ? status : kind === 'overloaded' ? 503 : undefined;
  const message = kind === 'invalid_request' || kind === 'rate_limited' ? said : `The upstream provider '${providerId}' failed: ${said}`;
  return new GatewayError(kind, message, {
    status: clientStatus,
    param: details.param,
    code: details.code ?? (kind === 'invalid_request' ? undefined : `upstream_${status}`),
    headers: kind === 'rate_limited' && retryAfterMs !== undefined ? { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) } : undefined,
    upstream,
  });
}

function kindForStatus(status: number): ErrorKind {
  if (status === 408) return 'timeout';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 404 || status >= 500) return 'upstream';
  if (status >= 400) return 'invalid_request';
  return 'upstream';
}

/** undici's error codes for the three time limits, and the socket failures worth a retry. */
const timeoutMessages: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response before the first-byte timeout',
  UND_ERR_BODY_TIMEOUT: 'the stream went idle for longer than the idle timeout',
};

/** A call that got no (complete) answer: refused, reset, or past one of the time limits. */
export function upstreamUnreachable(providerId: string, error: unknown): GatewayError {
  const code = (error as { code?: string } | undefined)?.code ?? (error as { cause?: { code?: string } })?.cause?.code ?? '';
  const timeout = timeoutMessages[code];
  if (timeout) {
    return new GatewayError('timeout', `The upstream provider '${providerId}' did not answer in time: ${timeout}.`, {
      code: 'upstream_timeout',
      upstream: { providerId },
      cause: error,
    });
  }
  return new GatewayError('upstream', `The upstream provider '${providerId}' could not be reached (${code || 'connection failed'}).`, {
    code: 'upstream_unreachable',
    upstream: { providerId },
    cause: error,
  });
}

/**
 * A stream that ended without the upstream's own end marker (`[DONE]`, `message_stop`, a finish reason):
 * half an answer must not pass for a whole one. No status, so the router retries it if nothing was sent.
 */
export function upstreamStreamEndedEarly(providerId: string): GatewayError {
  return new GatewayError('upstream', 'The upstream stream ended before the answer was complete.', { upstream: { providerId } });
}

/** `retry-after-ms` (OpenAI's), else `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: UpstreamHeaders): number | undefined {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const milliseconds = Number(first('retry-after-ms'));
  if (first('retry-after-ms') && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const retryAfter = first('retry-after');
  if (!retryAfter) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Key-shaped strings (OpenAI `sk-…`, Google `AIza…`, Anthropic `sk-ant-…`) and our configured secrets. */
const keyPattern = /\b(?:sk-[A-Za-z0-9_*-]{8,}|AIza[0-9A-Za-z_-]{20,})/g;

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) if (secret.length >= 8) scrubbed = scrubbed.replaceAll(secret, '[redacted]');
  return scrubbed.replace(keyPattern, '[redacted]');
}
