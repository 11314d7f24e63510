import type { Metering } from '../../../generated/operations.js';
import type { OutputCapFields } from '../../access/output-ceiling.js';
import type { RequestContext } from '../../core/request-context.js';

/** What the ledger calls a request's protocol. */
export type MeteredProtocol = Metering['ledgerProtocol'];

export interface MeteredEndpoint {
  protocol: MeteredProtocol;
  /**
   * Where its protocol's requests name their output cap (the definition's `outputCap`, read from the
   * request context), in the one spelling left by http/one-spelling-per-field.ts; none when it names none.
   */
  outputCap?: OutputCapFields;
  /** `POST /v1/chat/completions`, `POST /v1beta/models/{model}:streamGenerateContent`, … */
  endpoint: string;
  /** The model the client named, as sent (undefined when it named none, e.g. an image request without `model`). */
  requestedModel?: string;
  /**
   * Whether the request consumes tokens. Counting tokens (`count_tokens`, `:countTokens`) generates none:
   * it is a ledger row and a request against `requests_per_minute`, with no tokens and no cost.
   */
  consumesTokens: boolean;
  /** Whether it generates output tokens: embeddings consume input tokens only, so no output is reserved. */
  generatesOutput: boolean;
}

/**
 * How the operation the front door matched is metered, from its `x-metering` in the spec; undefined for
 * operations that are not model calls. Every spelling of a path that reaches a model operation is
 * metered alike, because this reads the operation, never the path.
 */
export function meteredEndpoint(context: RequestContext, body: unknown): MeteredEndpoint | undefined {
  const operation = context.operation;
  const metering = operation?.metering;
  if (!operation || !metering) return undefined;
  const bodyModel = (body as { model?: unknown } | undefined)?.model;
  return {
    protocol: metering.ledgerProtocol,
    ...(context.protocol?.outputCap && { outputCap: context.protocol.outputCap }),
    endpoint: `${operation.method.toUpperCase()} ${operation.path}`,
    requestedModel: metering.modelFrom === 'path' ? context.pathParams.model : typeof bodyModel === 'string' ? bodyModel : undefined,
    consumesTokens: metering.kind !== 'counting',
    generatesOutput: metering.kind === 'generation',
  };
}
