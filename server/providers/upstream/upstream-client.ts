import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher, type FormData } from 'undici';
import type { ProviderConfig } from '../../config/config-schema.js';
import { GatewayError } from '../../core/gateway-error.js';
import { noteUpstreamStatus, upstreamTraceHeaders } from '../../observability/tracing/upstream-trace.js';
import { collectResponse } from './collect-response.js';
import { asRecord, parseJson } from './parse-json.js';
import { resolveTimeouts, type Timeouts } from './timeouts.js';
import { upstreamStatusError, upstreamUnreachable, type UpstreamErrorDetails, type UpstreamHeaders } from './upstream-error.js';

/** A 2xx upstream answer whose body has not been read yet. */
export interface UpstreamReply {
  status: number;
  headers: UpstreamHeaders;
  body: Dispatcher.ResponseData['body'];
}

export interface UpstreamClientOptions {
  /** Reads the provider's error body shape; the rest of error handling is shared. */
  readError: (body: Record<string, unknown> | undefined) => UpstreamErrorDetails;
  /** Headers every call carries (auth, version); merged under the config's `headers`. */
  headers: Record<string, string>;
  /**
   * Headers fetched for each call, for upstreams whose credentials expire (a cloud's OAuth2 access token);
   * merged over `headers`. What it throws (a GatewayError naming the failure) reaches the caller as it is.
   */
  authorize?: () => Promise<Record<string, string>>;
}

/**
 * HTTP to one provider: a keep-alive connection pool (undici Agent) with the provider's connect,
 * first-byte and idle limits, abort on the caller's signal, and upstream failures turned into GatewayErrors
 * that the router can classify. One instance per configured provider.
 */
export class UpstreamClient {
  readonly timeouts: Timeouts;
  private readonly agent: Agent;
  private readonly baseUrl: string;
  /** The base URL split as undici's `dispatch` takes it: scheme, host and port; and the path before ours. */
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];

  constructor(
    private readonly config: ProviderConfig,
    defaultBaseUrl: string,
    private readonly options: UpstreamClientOptions,
  ) {
    this.timeouts = resolveTimeouts(config.timeouts);
    this.agent = new Agent({
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.firstByteMs,
      bodyTimeout: this.timeouts.idleMs,
      keepAliveTimeout: 30_000,
    });
    this.baseUrl = (config.base_url ?? defaultBaseUrl).replace(/\/+$/, '');
    const base = new URL(this.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.headers = { 'content-type': 'application/json', ...options.headers, ...config.headers };
    // The configured key and configured headers (a proxy's auth), never our fixed ones such as the
    // `anthropic-version` date, which would be "scrubbed" out of upstream messages.
    this.secrets = [config.api_key, ...Object.values(config.headers ?? {})].filter((value): value is string => Boolean(value));
  }

  /**
   * POSTs JSON to `path` (appended to the base URL) and resolves once the upstream's status and headers
   * are in. Non-2xx answers are read and thrown as GatewayErrors. `headers` are this call's own (a client's
   * `anthropic-beta`); the config's `headers` still win over them.
   */
  async postJson(path: string, body: unknown, signal: AbortSignal, headers?: Record<string, string>): Promise<UpstreamReply> {
    return this.post(path, JSON.stringify(body), await this.callHeaders(headers), signal);
  }

  /** The fixed headers, then the call's credentials and its own headers; the config's `headers` win. */
  private async callHeaders(headers: Record<string, string> | undefined): Promise<Record<string, string>> {
    const authorization = this.options.authorize ? await this.options.authorize() : undefined;
    const traced = upstreamTraceHeaders(this.origin);
    if (!headers && !authorization && !traced) return this.headers;
    return { ...this.headers, ...authorization, ...headers, ...traced, ...this.config.headers };
  }

  /**
   * POSTs JSON to `path` and resolves with the whole JSON answer: for calls that do not stream, which need
   * no body stream (see collect-response.ts). Failures are thrown as by `postJson` and `readJson`.
   */
  exchangeJson(path: string, body: unknown, signal: AbortSignal, headers?: Record<string, string>): Promise<Record<string, unknown>> {
    return this.exchange(path, JSON.stringify(body), signal, headers);
  }

  /**
   * As `exchangeJson`, with the JSON body already written to `file` (a forwarded batch's requests, too large to
   * hold): streamed from disk as it is sent, with its `content-length`. Same credentials, headers, time-outs and errors.
   */
  async exchangeJsonFile(path: string, file: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { size } = await stat(file);
    const body = createReadStream(file);
    try {
      return await this.exchange(path, body, signal, undefined, size);
    } finally {
      // Refused or aborted before undici read it all (or at all): the file is closed now, not when collected.
      body.destroy();
    }
  }

  private async exchange(path: string, body: string | Readable, signal: AbortSignal, headers: Record<string, string> | undefined, contentLength?: number): Promise<Record<string, unknown>> {
    const base = await this.callHeaders(headers);
    let reply: Awaited<ReturnType<typeof collectResponse>>;
    try {
      reply = await collectResponse(
        this.agent,
        { origin: this.origin, path: `${this.basePath}${path}`, method: 'POST', headers: contentLength === undefined ? base : { ...base, 'content-length': String(contentLength) }, body },
        signal,
      );
    } catch (error) {
      throw this.failure(error, signal);
    }
    noteUpstreamStatus(reply.status);
    const text = reply.body.toString('utf8');
    if (reply.status < 200 || reply.status >= 300) throw this.statusFailure(reply.status, reply.headers, text);
    return this.jsonObject(text);
  }

  /** POSTs a multipart form (image edits); undici streams its file parts and sets the boundary. */
  postForm(path: string, form: FormData, signal: AbortSignal): Promise<UpstreamReply> {
    const { 'content-type': _json, ...headers } = this.headers;
    return this.post(path, form, { ...headers, ...upstreamTraceHeaders(this.origin) }, signal);
  }

  /**
   * GETs `path` with the provider's credentials and resolves once status and headers are in (a batch's status,
   * its result file); non-2xx answers are thrown as by `postJson`.
   */
  async get(path: string, signal: AbortSignal): Promise<UpstreamReply> {
    const { 'content-type': _json, ...headers } = await this.callHeaders(undefined);
    return this.post(path, undefined, headers, signal, 'GET');
  }

  /** POSTs a multipart form with the provider's credentials (a batch's input file); undici sets the boundary. */
  async postAuthorizedForm(path: string, form: FormData, signal: AbortSignal): Promise<UpstreamReply> {
    const { 'content-type': _json, ...headers } = await this.callHeaders(undefined);
    return this.post(path, form, headers, signal);
  }

  private async post(path: string, body: string | FormData | undefined, headers: Record<string, string>, signal: AbortSignal, method: 'POST' | 'GET' = 'POST'): Promise<UpstreamReply> {
    let reply: Dispatcher.ResponseData;
    try {
      reply = await request(`${this.baseUrl}${path}`, { method, headers, body, signal, dispatcher: this.agent });
    } catch (error) {
      throw this.failure(error, signal);
    }
    noteUpstreamStatus(reply.statusCode);
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      return { status: reply.statusCode, headers: reply.headers, body: reply.body };
    }
    const text = await reply.body.text().catch(() => '');
    throw this.statusFailure(reply.statusCode, reply.headers, text);
  }

  /** A non-2xx answer as the GatewayError the router classifies, with the provider's own error message. */
  private statusFailure(status: number, headers: UpstreamHeaders, text: string): GatewayError {
    const details = this.options.readError(asRecord(parseJson(text)));
    return upstreamStatusError(this.config.id, status, headers, details, this.secrets);
  }

  /**
   * Downloads a file the upstream linked to in its answer (an image URL), with the same time limits and at
   * most `maxBytes`. No credentials go with it: the link may point at another host (a storage bucket).
   */
  async download(url: string, signal: AbortSignal, maxBytes: number): Promise<Buffer> {
    const failed = (why: string, status?: number) =>
      new GatewayError('upstream', `The upstream provider '${this.config.id}' linked to a file that could not be fetched: ${why}.`, {
        upstream: { providerId: this.config.id, status },
      });
    if (!/^https?:\/\//i.test(url)) throw failed('not an http(s) URL');
    let reply: Dispatcher.ResponseData;
    try {
      reply = await request(url, { method: 'GET', signal, dispatcher: this.agent });
    } catch (error) {
      throw this.failure(error, signal);
    }
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      await reply.body.dump().catch(() => undefined);
      throw failed(`status ${reply.statusCode}`, reply.statusCode >= 500 ? reply.statusCode : undefined);
    }
    const parts: Buffer[] = [];
    let received = 0;
    for await (const chunk of this.chunks({ status: reply.statusCode, headers: reply.headers, body: reply.body }, signal)) {
      received += chunk.byteLength;
      if (received > maxBytes) throw failed(`larger than ${maxBytes} bytes`);
      parts.push(Buffer.from(chunk));
    }
    return Buffer.concat(parts);
  }

  /** Reads a whole JSON body, turning a stalled or broken body into an upstream failure. */
  async readJson(reply: UpstreamReply, signal: AbortSignal): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await reply.body.text();
    } catch (error) {
      throw this.failure(error, signal);
    }
    return this.jsonObject(text);
  }

  /** A 2xx body that is not JSON is no answer at all: the error has no status, so the router retries it. */
  private jsonObject(text: string): Record<string, unknown> {
    const json = asRecord(parseJson(text));
    if (!json) {
      throw new GatewayError('upstream', `The upstream provider '${this.config.id}' sent a body that is not a JSON object.`, {
        upstream: { providerId: this.config.id },
      });
    }
    return json;
  }

  /** Wraps a body iterator so a reset or idle timeout mid-stream becomes a GatewayError too. */
  async *chunks(reply: UpstreamReply, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of reply.body) yield chunk as Uint8Array;
    } catch (error) {
      throw this.failure(error, signal);
    } finally {
      // Leaving early (client gone, or a consumer that stopped) must release the socket at once.
      if (!reply.body.destroyed) reply.body.destroy();
    }
  }

  /** An abort by our own caller stays an abort; anything else is the upstream's failure. */
  private failure(error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) return signal.reason ?? error;
    return upstreamUnreachable(this.config.id, error);
  }

  /** Closes pooled connections (tests, shutdown). */
  close(): Promise<void> {
    return this.agent.close();
  }
}
