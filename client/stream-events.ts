import { GatewayApiError } from './gateway-api-error.js';
import { parseSse } from './parse-sse.js';

/** What an openapi-fetch call made with `parseAs: 'stream'` resolves to. */
export interface StreamResult {
  data?: ReadableStream<Uint8Array> | null;
  error?: unknown;
  response: Response;
}

/**
 * The parsed `data` of each event of a streamed openapi-fetch call. A non-2xx answer throws
 * {@link GatewayApiError} with its status and parsed body before any event; error frames throw as
 * {@link parseSse} describes. Each streaming operation of the client is this plus its request.
 *
 * @example
 * ```ts
 * const result = await client.POST('/v1/messages', {
 *   body: { ...request, stream: true },
 *   parseAs: 'stream',
 *   headers: { accept: 'text/event-stream' },
 * });
 * for await (const event of streamEvents<components['schemas']['AnthropicStreamEvent']>(result)) {
 *   console.log(event.type);
 * }
 * ```
 */
export async function* streamEvents<T>(result: StreamResult): AsyncGenerator<T, void, undefined> {
  const { data, error, response } = result;
  if (!response.ok) throw GatewayApiError.fromResponse(response, error);
  if (!data) throw new GatewayApiError(response.status, 'The stream response has no body.', response.headers.get('x-request-id') ?? undefined);
  for await (const event of parseSse<T>(data)) yield event.data;
}
