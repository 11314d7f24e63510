import type { Usage } from '../core/internal-representation.js';

/** One request of a batch forwarded upstream: the client's `custom_id` and body, its `model` already the upstream's. */
export interface ForwardedRequest {
  customId: string;
  body: Record<string, unknown>;
}

/**
 * The requests of one upstream batch, never all in memory: `pages` reads them from the store a page at a time,
 * from the first each time it is called, so an API writes them out (an upload, a create's body) under
 * `scratchDirectory` and sends that file, streamed. An upstream batch may hold 200 MB (OpenAI's input file) or
 * 256 MB (Anthropic's create): held whole, as a body and its copies, it cost about a gigabyte of heap.
 */
export interface ForwardedRequests {
  pages(): AsyncIterable<readonly ForwardedRequest[]>;
  /** Under the gateway's data directory: the OS's temporary directory may be memory too (the container's /tmp is a tmpfs). */
  scratchDirectory: string;
}

/** One request's result as the upstream's batch reports it, in the client protocol's shapes. */
export interface UpstreamBatchResult {
  customId: string;
  outcome: 'succeeded' | 'errored' | 'canceled' | 'expired';
  /** The status the request was answered with (or the one its error type stands for); null when it never ran. */
  statusCode: number | null;
  /** JSON text: the answer, or the error body in the client protocol's shape; null when it never ran. */
  body: string | null;
  /** The upstream's report of what the request used, to be billed; none for a request that never ran. */
  usage?: Usage;
}

/** An upstream batch's state when polled: the upstream's own word for it, and whether it will change no more. */
export interface UpstreamBatchState {
  status: string;
  ended: boolean;
  /** For a batch that ended without results (OpenAI's `failed`): why, in the upstream's words. */
  failure?: string;
}

/**
 * An upstream's own batch API (OpenAI's Files and Batch API; Anthropic's Message Batches), through the
 * provider's HTTP client and so its base URL, credentials and headers. The gateway's batches forward to it
 * the lines of models with `batch: upstream` (server/batches/upstream/); the IDs it hands back are the
 * upstream's, kept by the gateway and never shown to a client.
 */
export interface UpstreamBatchApi {
  /** The client protocol whose lines it takes as they are (`openai`, `anthropic`); other lines run in the gateway. */
  readonly protocol: 'openai' | 'anthropic';
  /** The line endpoints it forwards (`/v1/chat/completions`, …). */
  readonly endpoints: readonly string[];
  /**
   * Uploads the requests where the API takes them as a file (OpenAI), resolving to the file's ID; an API that
   * takes them inline (Anthropic) has no upload.
   */
  upload?(requests: ForwardedRequests, endpoint: string, signal: AbortSignal): Promise<string>;
  /** Creates the batch and resolves to its ID. `tag` (ours) goes with it where the API keeps metadata, for `find`. */
  create(input: { requests: ForwardedRequests; endpoint: string; inputFileId?: string; tag: string }, signal: AbortSignal): Promise<string>;
  /**
   * The batch created with `tag`, if any: after a crash between a create and its record, the batch to adopt
   * instead of making a second. Absent where the API keeps no metadata to look by (Anthropic).
   */
  find?(tag: string, signal: AbortSignal): Promise<string | undefined>;
  state(upstreamId: string, signal: AbortSignal): Promise<UpstreamBatchState>;
  /** Every result of an ended batch, in any order. */
  results(upstreamId: string, signal: AbortSignal): AsyncIterable<UpstreamBatchResult>;
  cancel(upstreamId: string, signal: AbortSignal): Promise<void>;
}
