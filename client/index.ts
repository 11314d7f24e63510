import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../generated/api.js';
import { toFileUploadForm, type UploadFileParams } from './file-upload-form.js';
import { GatewayApiError } from './gateway-api-error.js';
import { splitImageEdit, toImageEditForm, type EditImageParams } from './image-edit-form.js';
import { streamEvents } from './stream-events.js';

export { GatewayApiError, type ErrorBody } from './gateway-api-error.js';
export { toFileUploadForm, type UploadFileParams } from './file-upload-form.js';
export { splitImageEdit, toImageEditForm, type EditImageParams } from './image-edit-form.js';
export { parseSse, type SseEvent } from './parse-sse.js';
export { streamEvents, type StreamResult } from './stream-events.js';
export type { components, paths } from '../generated/api.js';

type Schemas = components['schemas'];

/** A chat request for {@link GatewayClient.streamChatCompletion}, which sets `stream` itself. */
export type StreamChatCompletionRequest = Omit<Schemas['ChatCompletionRequest'], 'stream'>;

/** Per-call options of the helpers. */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface ClientOptions {
  /** The gateway origin without `/v1`, e.g. `http://127.0.0.1:8080`: spec paths start with `/v1`. */
  baseUrl: string;
  /** A gateway API key (or the admin key, for `/admin/v1/*`), sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** A fetch to use instead of the global one (for tests, proxies or instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
}

/**
 * The openapi-fetch client typed by the spec, plus helpers for what plain JSON calls cannot express. Its
 * `data` is typed as the JSON media type: chat and message creation also list `text/event-stream`, which
 * the stream helpers read; `parseAs: 'blob'` still gives a Blob for image files.
 */
export interface GatewayClient extends Client<paths, 'application/json'> {
  /**
   * Streams a chat completion: the typed chunks, ending after `data: [DONE]`. The request is sent when
   * iteration starts; a non-2xx answer or an in-band error frame throws {@link GatewayApiError}.
   *
   * @example
   * ```ts
   * const stream = client.streamChatCompletion({
   *   model: 'builtin/echo',
   *   messages: [{ role: 'user', content: 'Hello' }],
   *   stream_options: { include_usage: true },
   * });
   * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
   * ```
   */
  streamChatCompletion(body: StreamChatCompletionRequest, options?: CallOptions): AsyncIterable<Schemas['ChatCompletionChunk']>;

  /**
   * Edits images (`POST /v1/images/edits`, multipart). Resolves to the images or throws
   * {@link GatewayApiError}.
   *
   * @example
   * ```ts
   * const png = new Blob([await readFile('cat.png')], { type: 'image/png' });
   * const { data } = await client.editImage({ image: png, prompt: 'Add a red hat', n: 1, response_format: 'b64_json' });
   * ```
   */
  editImage(params: EditImageParams, options?: CallOptions): Promise<Schemas['ImagesResponse']>;

  /**
   * Uploads a file (`POST /v1/files`, multipart). Resolves to the stored file or throws
   * {@link GatewayApiError} (a `batch` file with a bad line is a 400 naming it). The other file
   * operations are plain calls: `GET('/v1/files')`, `GET('/v1/files/{file_id}')`,
   * `DELETE('/v1/files/{file_id}')`, and `GET('/v1/files/{file_id}/content', { parseAs: 'blob' })`.
   * A batch of an uploaded file's requests is plain calls too: `POST('/v1/batches', { body: { input_file_id,
   * endpoint, completion_window: '24h' } })`, `GET('/v1/batches/{batch_id}')`, `GET('/v1/batches')` and
   * `POST('/v1/batches/{batch_id}/cancel')`; its `output_file_id` is read with the content call above.
   *
   * @example
   * ```ts
   * const file = await client.uploadFile({ file: new Blob([jsonl]), filename: 'requests.jsonl', purpose: 'batch' });
   * ```
   */
  uploadFile(params: UploadFileParams, options?: CallOptions): Promise<Schemas['File']>;
}

/**
 * A typed client of the gateway: `GET`/`POST`/`DELETE` take spec paths and return openapi-fetch's
 * `{ data, error, response }`, and the helpers stream and upload.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.GATEWAY_KEY! });
 * const { data: models } = await client.GET('/v1/models');
 * const { data: model } = await client.GET('/v1/models/{model}', { params: { path: { model: 'builtin/echo' } } });
 * const { data: completion, error } = await client.POST('/v1/chat/completions', {
 *   body: { model: 'builtin/echo', messages: [{ role: 'user', content: 'Hi' }] },
 * });
 * ```
 */
export function createClient(options: ClientOptions): GatewayClient {
  const client = createFetchClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  async function* streamChatCompletion(body: StreamChatCompletionRequest, call: CallOptions = {}) {
    const result = await client.POST('/v1/chat/completions', {
      body: { ...body, stream: true },
      parseAs: 'stream',
      // The 200 answer has two media types; this picks the event stream (Prism negotiates on it too).
      headers: { ...call.headers, Accept: 'text/event-stream' },
      signal: call.signal,
    });
    yield* streamEvents<Schemas['ChatCompletionChunk']>(result);
  }

  async function editImage(params: EditImageParams, call: CallOptions = {}): Promise<Schemas['ImagesResponse']> {
    const { fields, files } = splitImageEdit(params);
    const { data, error, response } = await client.POST('/v1/images/edits', {
      body: fields,
      bodySerializer: (body) => toImageEditForm(body, files),
      headers: call.headers,
      signal: call.signal,
    });
    if (!response.ok || data === undefined) throw GatewayApiError.fromResponse(response, error);
    return data;
  }

  async function uploadFile(params: UploadFileParams, call: CallOptions = {}): Promise<Schemas['File']> {
    const { data, error, response } = await client.POST('/v1/files', {
      body: { purpose: params.purpose },
      bodySerializer: () => toFileUploadForm(params),
      headers: call.headers,
      signal: call.signal,
    });
    if (!response.ok || data === undefined) throw GatewayApiError.fromResponse(response, error);
    return data;
  }

  return Object.assign(client, { streamChatCompletion, editImage, uploadFile });
}

/**
 * The `data` of an openapi-fetch result, or {@link GatewayApiError} for a non-2xx answer, for callers
 * who prefer exceptions to checking `error`.
 *
 * @example
 * ```ts
 * const models = unwrap(await client.GET('/v1/models'));
 * console.log(models.data.map((model) => model.id));
 * ```
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok || result.data === undefined) throw GatewayApiError.fromResponse(result.response, result.error);
  return result.data;
}
