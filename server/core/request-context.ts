import type { IncomingMessage } from 'node:http';
import type { OperationRoute, ProtocolFamily } from '../../generated/operations.js';
import type { Principal } from '../access/principal.js';
import type { RequestMetrics } from '../observability/metrics/request-metrics.js';
import type { RequestTrace } from '../observability/tracing/trace-scope.js';
import type { MeteredRequest } from '../usage/metering/metered-request.js';
import type { UsageRecord } from '../usage/usage-record.js';
import type { AnswerEmitter } from './answer-emitter.js';
import type { ClientProtocol } from './client-protocol.js';
import { GatewayError } from './gateway-error.js';
import { RequestWork } from './request-work.js';
import type { Usage } from './internal-representation.js';
import type { StreamedSoFar } from './streamed-so-far.js';

/** Who is calling, once authentication has run: the admin, or a key of an account. */
export type Caller = { kind: 'admin' } | { kind: 'key'; principal: Principal };

/**
 * A request the gateway's batch runner sent for one line of a batch (server/batches/): it is served as the
 * same request from a client would be, but its ledger row carries the batch's ID and is handed to the
 * runner, which stores it in the transaction that records the line's outcome.
 */
export interface BatchLineRequest {
  batchId: string;
  keepRow(row: UsageRecord): void;
}

/** The model and deployment that served a model call. */
export interface ServedRoute {
  model: string;
  deployment: string;
}

/**
 * What the gateway knows about one request, written by the step that learns it and read by the ones after:
 * the front door (the operation and its family), authentication (the caller), the handler (the route that
 * served it, its usage), the observers of the routed call (metering's state: usage/metering/) and, when the
 * response is over, metering and the request log. One typed
 * object instead of `res.locals`, so a reader names what it needs and the compiler checks it.
 */
export interface RequestContext {
  /** The `x-request-id` of the response (request-id.ts). */
  requestId: string;
  /** The operation the front door matched; undefined for paths that are no operation (pages, 404s). */
  operation?: OperationRoute;
  /**
   * The client protocol of the operation (its `x-metering` protocol's definition): what metering, the
   * permissions, tracing and the body's canonical spelling read of the protocol. Undefined for an
   * operation that is no model call.
   */
  protocol?: ClientProtocol;
  /** The operation's path parameters, percent-decoded. */
  pathParams: Record<string, string>;
  /** Whose error shape the request gets: the operation's family, or the closest for a path that matched none. */
  family: ProtocolFamily;
  caller?: Caller;
  /**
   * The session the request belongs to, scoped by the caller's account (session-key.ts): the router keeps a
   * session on one deployment. Set by the http layer's step for model calls; undefined when none is named.
   */
  sessionKey?: string;
  route?: ServedRoute;
  /** The usage the upstream reported (or the gateway counted); undefined when none was reported. */
  usage?: Usage;
  /**
   * A streamed answer while it is sent, live: the usage reported so far, and the generated characters sent
   * (or, once the client left, read for nobody) since; the request's span reads it.
   */
  streamed?: StreamedSoFar;
  /**
   * The request's upstream work, which goes on for a while after its client left (request-work.ts); its
   * `signal` cancels every upstream call of the request.
   */
  work: RequestWork;
  /** The request's server span (observability/tracing/request-span.ts); none for untraced requests. */
  trace?: RequestTrace;
  /** Sends a routed call's answer: the front door gives every request the http layer's emit step. */
  emit: AnswerEmitter;
  /** What the metrics step keeps for the request's stream (observability/metrics/observe-requests.ts); none with metrics off. */
  metrics?: RequestMetrics;
  /** Metering's state of a metered request (usage/metering/metered-request.ts); undefined for any other. */
  metering?: MeteredRequest;
  /** Set by authentication for a batch line's request (http/in-process-callers.ts); undefined for a client's. */
  batchLine?: BatchLineRequest;
}

/**
 * Gives the generated handler types (generated/operations.ts) their context parameter: generated code imports
 * no server code, so the server adds the type to the interface it declares for this.
 */
declare module '../../generated/operations.js' {
  interface HandlerContextType {
    context: RequestContext;
  }
}

/**
 * The context rides on the request itself, under a key nothing else can name, not in a WeakMap: the
 * context reaches back to its request (its emit step holds the response, the response its request), and
 * V8's young-generation GC keeps alive a WeakMap entry whose value reaches its own key, so every request's
 * objects were promoted and lived until a full GC (bench/README.md, "issue 35's allocation regression").
 */
const contextKey = Symbol('request context');
type WithContext = IncomingMessage & { [contextKey]?: RequestContext };

/** Gives a request its context; the front door does this first, for every request. */
export function attachRequestContext(req: IncomingMessage): RequestContext {
  const context: RequestContext = { requestId: '', pathParams: {}, family: 'openai', work: new RequestWork(), emit: noEmitter };
  (req as WithContext)[contextKey] = context;
  return context;
}

/** The emit step of a request no front door took (a test's bare request): it has nowhere to answer. */
const noEmitter: AnswerEmitter = () => Promise.reject(new GatewayError('internal', 'This request has no way to send an answer.'));

/**
 * The request's context. Every request the gateway's server takes gets one first thing (front door); a
 * request that somehow has none gets an empty one, so that error handling can never fail for lack of it.
 */
export function contextOf(req: IncomingMessage): RequestContext {
  return (req as WithContext)[contextKey] ?? attachRequestContext(req);
}
