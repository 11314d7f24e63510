import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../../access/principal.js';
import { principalOf } from '../../access/principal-of.js';
import type { CallObserver } from '../../core/call-observer.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { defaultModelImages } from '../../config/config-schema.js';
import { GatewayError } from '../../core/gateway-error.js';
import { contextOf } from '../../core/request-context.js';
import type { DrainBound } from '../../core/request-work.js';
import { createLeaseRenewals } from '../../limits/lease-renewals.js';
import type { LimitScope, LimitStore, Reservation, ReserveRequest } from '../../limits/limit-store.js';
import type { GatewayMetrics } from '../../observability/metrics/gateway-metrics.js';
import { limitScopeKeyId } from '../../store/key-store.js';
import type { UsageRecord } from '../usage-record.js';
import type { UsageRecorder } from '../usage-recorder.js';
import type { SyncLedger } from '../sync-ledger.js';
import { commitUsageBeforeEnd, type RecordUsage } from './commit-usage-before-end.js';
import { meteredEndpoint } from './metered-endpoint.js';
import { planReservation, withGrantedOutputCap } from './plan-reservation.js';
import { meterAnswers } from './meter-answers.js';
import type { MeteredRequest, Outcome } from './metered-request.js';
import { outcomeOf } from './request-outcome.js';
import { usageRowOf } from './usage-row-of.js';

export interface MeteringDependencies {
  registry: ModelRegistry;
  limits: LimitStore;
  recorder: UsageRecorder;
  /** With `ledger.durability: sync`: each row is committed here before its response ends. */
  syncLedger?: SyncLedger;
  logger: Logger;
  /** `limits.default_output_tokens`: the most output the gateway grants a limited request that names no cap. */
  defaultOutputTokens: number;
  /** With `metrics.enabled`: told each usage row and each limit refusal. */
  metrics?: Pick<GatewayMetrics, 'usageRecorded' | 'limitRefused'>;
  /** `ledger.abandoned_streams`: how long, and how many bytes, a request whose client left is read on. */
  drainBound: DrainBound;
  /** Counts a response whose client left as in flight until its row is recorded, so that shutdown waits for (and ends) its drain. */
  keepInFlight?(res: ServerResponse, until: Promise<void>): void;
}

/** The two steps of metering, plus what shutdown must wait for. */
export interface Metering {
  /**
   * Runs right after authentication, before the body is read: from here every request of a key to a model
   * operation leaves one usage row when its response is over, whatever ends it (a body that cannot be
   * read, 413, 415, a validation 400, a refusal, 429, an error, a client that left).
   */
  recordUsage: RequestHandler;
  /** Runs once the body is read (its estimate is needed): reserves the limits, or refuses with 429; writes a granted cap into the body. */
  middleware: RequestHandler;
  /** Told the answer of every routed call (meter-answers.ts): the router is given it with the other observers. */
  observer: CallObserver;
  /**
   * Stops the drains of clients that left still running (they are charged their worst case), and
   * resolves once every finished request's row is recorded and its limits are settled.
   */
  idle(): Promise<void>;
}

/**
 * Meters every model request, on every surface, in one place: before the request is served its account's
 * and key's limits are reserved (a request, a concurrency slot, and its worst case in tokens and dollars,
 * with an output cap granted if it named none: plan-reservation.ts), and refused with 429 when any is
 * reached; when the response is over, however it ended, the reservation is settled to the real token
 * count and cost, and one usage row is queued for the ledger (or committed first, with a sync ledger).
 * When the client leaves first, the upstream is read on within the drain bound (core/request-work.ts), and
 * the row and the settlement wait for it: the slot stays taken while the upstream still works, and what
 * is charged is what the upstream reported, or the worst case if it never did (abandoned-usage.ts).
 */
export function createMetering(deps: MeteringDependencies): Metering {
  const settling = new Set<Promise<void>>();
  const renewals = createLeaseRenewals(deps.limits, deps.logger);
  // What was used, and nothing for a request that never reached an upstream or whose upstream failed
  // without reporting usage: the reservation was only ever a worst case.
  const settle = (reservation: Reservation, outcome: Outcome) => {
    renewals.stop(reservation);
    const tokens = outcome.usage.inputTokens + outcome.usage.outputTokens;
    const settled = deps.limits
      .settle(reservation, { tokens, costUsd: outcome.costUsd })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'settling a limit reservation failed'))
      .finally(() => settling.delete(settled));
    settling.add(settled);
  };
  /** The drains of clients that left, each until its row is recorded. */
  const draining = new Map<Request, Promise<void>>();

  const recordUsage: RequestHandler = (req, res, next) => {
    const context = contextOf(req);
    // Every metered operation needs a key (the spec's security); a request without one has no account to charge.
    if (!context.operation?.metering || context.caller?.kind !== 'key') return next();
    const principal = principalOf(context);
    const startedAt = Date.now();
    const request: MeteredRequest = {};
    context.metering = request;
    // Built once, from what the handler left: when the response closes, or, with a sync ledger, as the
    // handler ends it (the client is then about to have the whole answer).
    const recordRow =
      (completed: boolean): RecordUsage =>
      (keep) => {
        if (request.outcome || (completed && request.abandoned)) return;
        // The body, when one could be read, names the model; for Gemini the path does.
        const endpoint = meteredEndpoint(context, req.body)!;
        const outcome = outcomeOf(req, res, context, request.answer, endpoint, deps.registry, { completed, defaultOutputTokens: deps.defaultOutputTokens });
        request.outcome = outcome;
        const row = usageRowOf({ context, principal, endpoint, outcome, statusCode: res.statusCode, completed, startedAt });
        deps.metrics?.usageRecorded(context.operation!.operationId, row);
        keep(row);
        if (request.reservation) settle(request.reservation, outcome);
      };
    // A batch line's row is the runner's to store, with the line's outcome (server/batches/).
    const batchLine = context.batchLine;
    const keepRow = (row: UsageRecord) => (batchLine ? batchLine.keepRow(row) : deps.recorder.record(row));
    res.once('close', () => {
      if (res.writableFinished) return recordRow(true)(keepRow);
      // Over without being finished: the client left before it had the whole answer, and the upstream goes on.
      request.abandoned = true;
      context.work.abandon(deps.drainBound);
      const recorded = context.work.done.then(() => recordRow(false)(keepRow));
      draining.set(req, recorded);
      void recorded.finally(() => draining.delete(req));
      deps.keepInFlight?.(res, recorded);
    });
    if (deps.syncLedger && !batchLine) commitUsageBeforeEnd(res, deps.syncLedger, recordRow(true));
    next();
  };

  const middleware: RequestHandler = async (req, _res, next) => {
    const context = contextOf(req);
    const request = context.metering;
    if (!request) return next();
    const principal = principalOf(context);
    const scopes = limitScopes(principal);
    if (scopes.length > 0) {
      const endpoint = meteredEndpoint(context, req.body)!;
      const model = endpoint.requestedModel === undefined ? undefined : deps.registry.find(endpoint.requestedModel);
      const plan = planReservation({
        endpoint,
        body: req.body,
        scopes,
        pricing: model?.pricing,
        permittedOutputTokens: principal.access.outputTokenCeiling(),
        defaultOutputTokens: deps.defaultOutputTokens,
        modelMaxOutputTokens: model?.maxOutputTokens,
        maxImages: model?.images.max_n ?? defaultModelImages.max_n,
      });
      const reservation = await reserve(deps.limits, { scopes, ...plan }, deps.metrics);
      request.reservation = reservation;
      renewals.start(reservation);
      // The client may have gone while the counters were asked: its slot must not wait for the lease to expire.
      if (request.outcome) settle(reservation, request.outcome);
      if (reservation.grantedOutputTokens !== undefined) req.body = withGrantedOutputCap(endpoint.outputCap, req.body, reservation.grantedOutputTokens);
    }
    next();
  };

  return {
    recordUsage,
    middleware,
    observer: meterAnswers,
    async idle() {
      for (const req of draining.keys()) contextOf(req).work.stop(new GatewayError('overloaded', 'The gateway shut down before the upstream finished.'));
      await Promise.all(draining.values());
      while (settling.size > 0) await Promise.all(settling);
    },
  };
}

/** The account's limits and the key's own, each a scope of its own; none when neither has any. */
function limitScopes(principal: Principal): LimitScope[] {
  const scopes: LimitScope[] = [];
  if (Object.keys(principal.account.limits).length > 0) scopes.push({ id: `account:${principal.account.id}`, limits: principal.account.limits });
  if (Object.keys(principal.key.limits).length > 0) scopes.push({ id: `key:${limitScopeKeyId(principal.key)}`, limits: principal.key.limits });
  return scopes;
}

async function reserve(limits: LimitStore, request: ReserveRequest, metrics: MeteringDependencies['metrics']): Promise<Reservation> {
  let result;
  try {
    result = await limits.reserve(request);
  } catch (error) {
    // Without its counters the gateway cannot keep a limit, so it refuses rather than serve unmetered.
    throw new GatewayError('overloaded', 'Rate limits cannot be checked right now; try again shortly.', { status: 503, headers: { 'retry-after': '1' }, cause: error });
  }
  if (result.ok) return result.reservation;
  const { refusal } = result;
  metrics?.limitRefused(refusal);
  throw new GatewayError('rate_limited', refusal.message, {
    code: refusal.retryable ? 'rate_limit_exceeded' : 'request_exceeds_limit',
    headers: refusal.retryable ? { 'retry-after': String(refusal.retryAfterSeconds) } : undefined,
  });
}
