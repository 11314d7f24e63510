import type { Metering, ProtocolFamily } from '../../generated/operations.js';
import type { OutputCapFields } from '../access/output-ceiling.js';
import type { WireScanner } from '../access/wire-scan/wire-scan.js';
import type { ImageUrlRewriter } from '../outbound/image-inliner.js';
import type { GatewayError } from './gateway-error.js';
import type { SessionFields } from './session-key.js';
import type { WireProtocol } from './wire-protocol.js';

/** A client protocol's name: what the spec's `x-metering` and the ledger call it. */
export type ClientProtocolName = Metering['ledgerProtocol'];

/** The kinds of model call an operation may be (`x-metering.kind`). */
export type MeteringKind = Metering['kind'];

/**
 * What the layers below the protocols (access, metering, tracing, providers, the error handler) need to
 * know about one client protocol, read from the request context (`context.protocol`) or the model call
 * rather than from tables of their own: each protocol declares it once, in its folder's `index.ts`, and
 * protocols/registry.ts lists them. Defined here, below the protocols, so that those layers never import
 * protocols/.
 */
export interface ClientProtocol<Name extends ClientProtocolName = ClientProtocolName> {
  name: Name;
  /** The SDK family whose error shape, credentials and model list its clients use. */
  family: Exclude<ProtocolFamily, 'admin'>;
  /**
   * How a raw body of the protocol is read field by field for narrowed keys (access/wire-scan/); none for
   * protocols that never reach the permissions' field-by-field scan.
   */
  wireScanner?: WireScanner;
  /**
   * The body with one spelling per field (a 400 naming both spellings of one given twice): run before
   * anything reads the body, so every reader sees what the upstream will get (http/one-spelling-per-field.ts).
   */
  canonicalise?(body: Record<string, unknown>): Record<string, unknown>;
  /** Where a request names its output cap and budget, in the one spelling `canonicalise` leaves; none when it generates no text. */
  outputCap?: OutputCapFields;
  /**
   * Replaces the image URLs of a body forwarded in this protocol, for upstreams that take images only as
   * data (providers/with-inlined-image-urls.ts); none when such upstreams never forward it.
   */
  rewriteImageUrls?: ImageUrlRewriter<Record<string, unknown>>;
  /**
   * Where its bodies name the session a request belongs to, for the router's session affinity
   * (core/session-key.ts); none when its API has no such field.
   */
  sessionFields?: SessionFields;
  /** The error body the family's SDK parses, for an error of a request in this protocol. */
  renderError(error: GatewayError): unknown;
  /** `gen_ai.operation.name` of its operations, by their kind (`x-metering.kind`); none for an operation that is no GenAI operation. */
  genAiOperationNames: Partial<Record<MeteringKind, string>>;
  /** How traces read its answers: finish reasons and generated text. */
  answerReader: AnswerReader;
}

/** Where a protocol's answers state their finish reasons and generated output (observability/tracing/answer-span.ts). */
export interface AnswerReader {
  /**
   * The keys of a finish reason in its bodies and stream events (`finish_reason`, `stop_reason`, …); a
   * Responses object states its own by its status, which every reader understands.
   */
  finishReasonKeys: readonly string[];
  /** The generated part of a whole answer (`choices`, `content`, `candidates`, `output`). */
  outputOf(body: Record<string, unknown>): unknown;
}

/** A protocol whose requests go through the model-call pipeline (core/model-call.ts): its bodies are always scanned for narrowed keys. */
export type ModelCallProtocol = ClientProtocol<WireProtocol> & Required<Pick<ClientProtocol, 'wireScanner'>>;
