import type { components } from '../generated/api.js';

/** Every error body the gateway renders, one per protocol family (admin routes use the OpenAI shape). */
export type ErrorBody =
  | components['schemas']['OpenAIError']
  | components['schemas']['AnthropicError']
  | components['schemas']['GeminiError'];

/**
 * The one error the client throws for a failure the gateway reported: a non-2xx answer (with its HTTP
 * `status`) or an error frame inside an event stream that had already started (`status` undefined, as the
 * official OpenAI SDK does). `body` is the parsed error body as sent, in the route's protocol shape;
 * `type`, `code` and `param` read it whichever shape it has.
 *
 * @example
 * ```ts
 * try {
 *   for await (const chunk of client.streamChatCompletion({ model: 'nope', messages })) console.log(chunk);
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.status === 404) console.log(error.code); // 'model_not_found'
 * }
 * ```
 */
export class GatewayApiError extends Error {
  override readonly name = 'GatewayApiError';

  constructor(
    /** The HTTP status, or undefined for an error reported in-band after a stream began. */
    readonly status: number | undefined,
    /** The error body as parsed (JSON when it was JSON, else the raw text). */
    readonly body: unknown,
    /** The gateway's `x-request-id`, to quote when reporting a problem. */
    readonly requestId?: string,
  ) {
    super(describe(status, body));
  }

  /**
   * The error a finished non-2xx `Response` stands for; `body` is what openapi-fetch parsed as `error`.
   *
   * @example
   * ```ts
   * const { data, error, response } = await client.GET('/v1/models');
   * if (!response.ok) throw GatewayApiError.fromResponse(response, error);
   * ```
   */
  static fromResponse(response: Response, body: unknown): GatewayApiError {
    return new GatewayApiError(response.status, body, response.headers.get('x-request-id') ?? undefined);
  }

  /** OpenAI `error.type`, Anthropic `error.type` or Gemini `error.status`. */
  get type(): string | undefined {
    const details = detailsOf(this.body);
    return stringOrUndefined(details?.type) ?? stringOrUndefined(details?.status);
  }

  /** OpenAI `error.code` (such as `model_not_found`), when the body has one. */
  get code(): string | undefined {
    return stringOrUndefined(detailsOf(this.body)?.code);
  }

  /** OpenAI `error.param`: the request field at fault, when the body names one. */
  get param(): string | undefined {
    return stringOrUndefined(detailsOf(this.body)?.param);
  }
}

// The nested `error` object of all three shapes; a Responses `error` event also carries flat fields.
function detailsOf(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  return isRecord(body.error) ? body.error : body;
}

function describe(status: number | undefined, body: unknown): string {
  const details = detailsOf(body);
  const message = stringOrUndefined(details?.message) ?? (typeof body === 'string' && body ? body : 'no error message');
  return status === undefined ? `Stream error: ${message}` : `${status}: ${message}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
