import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import type { OutboundConfig } from '../config/config-schema.js';
import { AddressPolicy } from './address-policy.js';
import { guardedLookup } from './guarded-lookup.js';
import { BlockedAddressError, OutboundRefusal } from './outbound-refusal.js';

/** A body fetched whole, with the content type its server declared. */
export interface FetchedBody {
  bytes: Buffer;
  /** The media type without parameters, lower case (`image/png`); undefined when the server sent none. */
  contentType?: string;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface FetchUserUrlOptions {
  /** The client's request signal: the fetch stops when the client goes away. */
  signal: AbortSignal;
  /** The `accept` header; without it, any type. */
  accept?: string;
  /**
   * Judges the final answer's content type before its body is read; false refuses it (`wrong_type`), so a
   * large body of the wrong kind is never downloaded.
   */
  acceptsContentType?: (contentType: string | undefined) => boolean;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** undici's own connect, header and body time-outs: set to the same limit, they may fire just before ours. */
const undiciTimeouts = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * GETs URLs that clients supplied (image links to inline for an upstream that takes only data) without
 * letting them reach what the gateway alone can see. Every URL, the first and each redirect, must be
 * `http:`/`https:` and reach a public address unless `outbound.allow` lists it: IP literals are checked
 * here, names when they are resolved at connect time (guarded-lookup.ts). Redirects are followed by hand,
 * at most `max_redirects`; the whole fetch, redirects included, gets `timeout_ms`; bodies stop at
 * `max_bytes`. No credentials or client headers go with the request.
 *
 * @example
 * const fetcher = new UserUrlFetcher({ allow: [], max_bytes: 10_485_760, timeout_ms: 10_000, max_redirects: 3, max_urls_per_request: 16 });
 * const { bytes, contentType } = await fetcher.fetch('https://example.com/cat.png', { signal });
 */
export class UserUrlFetcher {
  private readonly policy: AddressPolicy;
  private readonly agent: Agent;

  constructor(private readonly limits: OutboundConfig) {
    this.policy = new AddressPolicy(limits.allow);
    this.agent = new Agent({
      connect: { lookup: guardedLookup(this.policy), timeout: limits.timeout_ms },
      headersTimeout: limits.timeout_ms,
      bodyTimeout: limits.timeout_ms,
    });
  }

  /** Resolves with the whole body, or throws an OutboundRefusal (or the client's abort reason). */
  async fetch(url: string, options: FetchUserUrlOptions): Promise<FetchedBody> {
    const deadline = AbortSignal.timeout(this.limits.timeout_ms);
    const signal = AbortSignal.any([options.signal, deadline]);
    let current = this.checkedUrl(url);
    try {
      for (let redirects = 0; ; redirects++) {
        const reply = await request(current, { method: 'GET', headers: { accept: options.accept ?? '*/*' }, signal, dispatcher: this.agent });
        const location = headerValue(reply.headers.location);
        if (redirectStatuses.has(reply.statusCode) && location) {
          discard(reply.body);
          if (redirects >= this.limits.max_redirects) {
            throw new OutboundRefusal('redirects', `more than ${this.limits.max_redirects} redirects`, { limit: this.limits.max_redirects });
          }
          current = this.checkedUrl(location, current);
          continue;
        }
        return await this.readAnswer(reply, current, options);
      }
    } catch (error) {
      if (error instanceof OutboundRefusal) throw error;
      options.signal.throwIfAborted();
      throw this.explainFailure(error, current, deadline);
    }
  }

  /** Releases the connection pool (shutdown, tests). */
  close(): Promise<void> {
    return this.agent.close();
  }

  /** Parses a URL (relative to the previous one for a redirect) and refuses it before any connection. */
  private checkedUrl(text: string, base?: URL): URL {
    let url: URL;
    try {
      url = new URL(text, base);
    } catch {
      throw new OutboundRefusal('scheme', 'not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefusal('scheme', `scheme '${url.protocol}' is not http or https`, { detail: url.protocol });
    }
    // The URL parser has already turned `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` into canonical IPs.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host) !== 0;
    if ((literal && !this.policy.permitsAddress(host)) || (!literal && this.policy.refusesHostname(host))) {
      throw new OutboundRefusal('private_address', `host '${url.hostname}' is not a public address`, { host: url.hostname });
    }
    return url;
  }

  private async readAnswer(reply: Dispatcher.ResponseData, url: URL, options: FetchUserUrlOptions): Promise<FetchedBody> {
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      discard(reply.body);
      throw new OutboundRefusal('status', `answered HTTP ${reply.statusCode}`, { detail: String(reply.statusCode) });
    }
    const contentType = headerValue(reply.headers['content-type'])?.split(';')[0]?.trim().toLowerCase() || undefined;
    if (options.acceptsContentType && !options.acceptsContentType(contentType)) {
      discard(reply.body);
      throw new OutboundRefusal('wrong_type', `answered with content type '${contentType ?? 'none'}'`, { detail: contentType ?? 'none' });
    }
    const max = this.limits.max_bytes;
    const declared = Number(headerValue(reply.headers['content-length']));
    if (declared > max) {
      discard(reply.body);
      throw new OutboundRefusal('too_large', `declares ${declared} bytes, more than ${max}`, { limit: max });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of reply.body) {
      total += (chunk as Buffer).length;
      // A missing or false content-length must not let a larger body through: stop reading at the limit.
      if (total > max) {
        discard(reply.body);
        throw new OutboundRefusal('too_large', `sent more than ${max} bytes`, { limit: max });
      }
      chunks.push(chunk as Buffer);
    }
    return { bytes: Buffer.concat(chunks, total), contentType, url: url.href };
  }

  /** A failure that is not one of our refusals: blocked at connect time, out of time, or unreachable. */
  private explainFailure(error: unknown, url: URL, deadline: AbortSignal): OutboundRefusal {
    if (causes(error).some((cause) => cause instanceof BlockedAddressError)) {
      return new OutboundRefusal('private_address', `host '${url.hostname}' resolves to an address that is not public`, { host: url.hostname });
    }
    const code = causes(error)
      .map((cause) => (cause as { code?: unknown }).code)
      .find((value): value is string => typeof value === 'string');
    if (deadline.aborted || (code !== undefined && undiciTimeouts.has(code))) {
      return new OutboundRefusal('timeout', `no whole answer within ${this.limits.timeout_ms} ms`, { limit: this.limits.timeout_ms });
    }
    return new OutboundRefusal('unreachable', `could not be fetched${code ? ` (${code})` : ''}`, { host: url.hostname, detail: code });
  }
}

/** The error and its `cause` chain: undici wraps socket errors. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 5; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}

/** Stops a body we will not read; undici reports the abort as an error event, which nobody needs. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
