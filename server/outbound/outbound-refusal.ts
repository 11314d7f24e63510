/**
 * Why a fetch on a user's behalf did not bring back a body. The caller words it for its client (an image
 * URL, say): this module does not know what the URL was for.
 */
export type RefusalReason =
  /** Not `http:` or `https:` (`file:`, `ftp:`, `gopher:` …), or not a URL at all. */
  | 'scheme'
  /** The host is, or resolves to, a loopback, private, link-local or metadata address not allow-listed. */
  | 'private_address'
  /** More than `max_redirects` redirects. */
  | 'redirects'
  /** `content-length` or the bytes read passed `max_bytes`. */
  | 'too_large'
  /** No whole answer within `timeout_ms`. */
  | 'timeout'
  /** The server answered with a status other than 2xx (after redirects). */
  | 'status'
  /** Connection refused, reset, name not found… */
  | 'unreachable'
  /** The body is not what the caller asked for (an image). */
  | 'wrong_type';

/**
 * A refused or failed outbound fetch. `limit` is the configured number that was passed (bytes,
 * milliseconds, redirects); `detail` a short, safe description (a status, a content type, an error code).
 * Never carries an address a name resolved to: that would tell a client about the gateway's network.
 *
 * @example
 * throw new OutboundRefusal('too_large', `sent more than ${max} bytes`, { limit: max });
 */
export class OutboundRefusal extends Error {
  override name = 'OutboundRefusal';

  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly details: { host?: string; limit?: number; detail?: string } = {},
  ) {
    super(message);
  }
}

/**
 * Thrown from the connect-time DNS check; the fetcher turns it into a `private_address` refusal.
 *
 * @example
 * if (forbidden) return callback(new BlockedAddressError(hostname), '', 0);
 */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'E_BLOCKED_ADDRESS';

  constructor(readonly hostname: string) {
    super(`'${hostname}' resolves to an address the gateway may not reach`);
  }
}
